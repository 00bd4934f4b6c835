// Types of run-mode.js, which stays plain Node so that `npm start` can use it before dependencies exist.

export type ModeChoice =
  { mode: 'services' | 'standalone'; why: string; error?: undefined } | { error: string };

export function answers(port: number): Promise<boolean>;

export function chooseMode(input: {
  setting: (name: string) => string | undefined;
  probe?: (port: number) => Promise<boolean>;
  ports?: { postgres: number; rabbitmq: number };
}): Promise<ModeChoice>;

export function readSetting(
  name: string,
  env?: Readonly<Record<string, string | undefined>>,
  dotenvPath?: string | null,
): string | undefined;
