// Standalone runs start workers inside the test process. Jest gives each test file its own realm,
// while native addons (onnxruntime-node) create typed arrays in the process's main realm, which then
// fail `instanceof Float32Array` checks made in the test realm. Sharing the main realm's typed array
// constructors makes both sides agree, as they do in a service process.
const { TestEnvironment } = require('jest-environment-node');

const SHARED = [
  'ArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class StandaloneEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) this.global[name] = globalThis[name];
  }
}

module.exports = StandaloneEnvironment;
