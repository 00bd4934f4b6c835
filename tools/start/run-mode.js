// How `npm start` picks its run mode; plain Node, so it works before dependencies are installed.
const { existsSync, readFileSync } = require('node:fs');
const net = require('node:net');

/** A variable's value from the environment, else from the given .env file, else undefined. */
function readSetting(name, env = process.env, dotenvPath = null) {
  if (env[name] !== undefined && env[name] !== '') return env[name];
  if (dotenvPath === null || !existsSync(dotenvPath)) return undefined;
  for (const line of readFileSync(dotenvPath, 'utf8').split('\n')) {
    const match = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=\\s*(.*?)\\s*$`).exec(line);
    if (match && match[1] !== '') return match[1].replace(/^(['"])(.*)\1$/, '$2');
  }
  return undefined;
}

/** Whether something accepts a TCP connection on 127.0.0.1:port within half a second. */
function answers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * SVC_MODE wins. Otherwise the services mode when a database or broker URL is configured, or when
 * PostgreSQL or RabbitMQ answers on its local port; the standalone mode when nothing is there.
 * An unknown SVC_MODE is an error (`{ error }`), not a guess.
 */
async function chooseMode({ setting, probe = answers, ports = { postgres: 5432, rabbitmq: 5672 } }) {
  const explicit = setting('SVC_MODE');
  if (explicit === 'standalone' || explicit === 'services') return { mode: explicit, why: 'SVC_MODE' };
  if (explicit) return { error: `SVC_MODE must be 'services' or 'standalone', got '${explicit}'` };
  const urls = ['SVC_DB_URL', 'SVC_AMQP_URL'].filter((name) => setting(name) !== undefined);
  if (urls.length > 0) return { mode: 'services', why: `${urls.join(' and ')} set` };
  const [pg, mq] = await Promise.all([probe(ports.postgres), probe(ports.rabbitmq)]);
  if (pg || mq) {
    const found = [
      pg && `PostgreSQL on 127.0.0.1:${ports.postgres}`,
      mq && `RabbitMQ on 127.0.0.1:${ports.rabbitmq}`,
    ].filter(Boolean);
    return { mode: 'services', why: `${found.join(' and ')} answered` };
  }
  return {
    mode: 'standalone',
    why: `no SVC_DB_URL or SVC_AMQP_URL, nothing on 127.0.0.1:${ports.postgres} or 127.0.0.1:${ports.rabbitmq}`,
  };
}

module.exports = { answers, chooseMode, readSetting };
