#!/usr/bin/env node
// `npx svc ...` from the repository: runs the command-line client (tools/cli/svc.ts) from source.
require('../../register.js');
const { run } = require('../svc.ts');

run(process.argv.slice(2)).then((code) => process.exit(code));
