// Jest runs global setup outside its module mapper: load the TypeScript sources with path aliases.
require('../../../tools/register.js');
module.exports = require('./global-setup.ts').default;
