'use strict';
// Jest runs each test file in its own vm realm, with its own Float32Array, BigInt64Array, ... .
// onnxruntime-node creates output tensors from the main realm's constructors, and onnxruntime-common
// checks tensor data with `instanceof`, so tensors cross the realm boundary only when the test realm
// shares the main realm's typed-array constructors and ArrayBuffer. Without this, every run fails with
// "A float32 tensor's data must be type of function Float32Array()".
//
// Use it per spec file with the docblock
//   /** @jest-environment ./libs/inference/testing/typed-array-environment.cjs */
// Jest resolves a docblock environment path against the config's rootDir (the repository root).
const { TestEnvironment } = require('jest-environment-node');

const SHARED_GLOBALS = [
  'ArrayBuffer',
  'SharedArrayBuffer',
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

class TypedArrayEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED_GLOBALS) {
      if (name in globalThis) this.global[name] = globalThis[name];
    }
  }
}

module.exports = TypedArrayEnvironment;
