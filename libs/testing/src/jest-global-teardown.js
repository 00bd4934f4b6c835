require('../../../tools/register.js');
module.exports = require('./global-teardown.ts').default;
