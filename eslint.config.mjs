import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const frameworkAndDrivers = [
  '@nestjs/core',
  '@nestjs/platform-fastify',
  '@nestjs/testing',
  'typeorm',
  'pg',
  'amqplib',
  'amqp-connection-manager',
  '@aws-sdk/*',
  'onnxruntime-node',
  'fastify',
  '@fastify/*',
  'prom-client',
  'pino',
];

// The server-side libraries below the apps (the test helpers may use all of them).
const serverLibs = [
  'type:contracts',
  'type:domain',
  'type:persistence',
  'type:platform',
  'type:jobs',
  'type:bootstrap',
  'type:inference',
  'type:use-cases',
];

const depConstraints = [
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: [...serverLibs, 'type:go-transfer', 'type:client'],
  },
  {
    sourceTag: 'type:domain',
    onlyDependOnLibsWithTags: ['type:domain'],
    bannedExternalImports: [...frameworkAndDrivers, '@nestjs/*', 'class-validator', 'class-transformer'],
  },
  {
    sourceTag: 'type:contracts',
    onlyDependOnLibsWithTags: ['type:contracts'],
    bannedExternalImports: frameworkAndDrivers,
  },
  {
    sourceTag: 'type:persistence',
    onlyDependOnLibsWithTags: ['type:persistence', 'type:domain', 'type:contracts'],
  },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
  {
    sourceTag: 'type:jobs',
    onlyDependOnLibsWithTags: [
      'type:jobs',
      'type:persistence',
      'type:platform',
      'type:contracts',
      'type:domain',
    ],
  },
  {
    sourceTag: 'type:inference',
    onlyDependOnLibsWithTags: ['type:inference', 'type:domain', 'type:contracts', 'type:platform'],
  },
  {
    sourceTag: 'type:go-transfer',
    onlyDependOnLibsWithTags: [
      'type:go-transfer',
      'type:jobs',
      'type:persistence',
      'type:inference',
      'type:platform',
      'type:contracts',
      'type:domain',
    ],
  },
  {
    sourceTag: 'type:use-cases',
    onlyDependOnLibsWithTags: [
      'type:use-cases',
      'type:jobs',
      'type:inference',
      'type:persistence',
      'type:platform',
      'type:domain',
      'type:contracts',
    ],
  },
  // How a process starts (infrastructure, secrets, the worker bootstrap, shared Nest modules): above
  // the job runtime, below the apps.
  {
    sourceTag: 'type:bootstrap',
    onlyDependOnLibsWithTags: [
      'type:bootstrap',
      'type:jobs',
      'type:persistence',
      'type:platform',
      'type:contracts',
      'type:domain',
    ],
  },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: serverLibs },
  // The API client speaks HTTP only: it may use the contracts' types, nothing of the server.
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:client', 'type:contracts'] },
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:auth', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:worker', onlyDependOnLibsWithTags: ['scope:shared'] },
];

// Spec files may also use the testing library.
const specDepConstraints = depConstraints.map((c) =>
  c.sourceTag.startsWith('type:') && c.sourceTag !== 'type:domain' && c.sourceTag !== 'type:contracts'
    ? { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:testing'] }
    : c,
);

/** Text that starts like an SQL statement (upper-case keywords, as this code base writes them), or psql's \\copy. */
const SQL_TEXT =
  '/^\\s*(SELECT\\s|INSERT INTO\\s|UPDATE\\s+\\w+\\s+SET\\s|DELETE FROM\\s|WITH RECURSIVE\\s|CREATE\\s|DROP\\s|ALTER\\s|TRUNCATE\\s|SAVEPOINT\\s|\\\\\\\\?copy\\s)/';

/**
 * SQL in any case: statement shapes no prose starts with (a select list then FROM, INSERT INTO, an
 * UPDATE ... SET, DELETE FROM, a common table expression, DDL on a named kind of object).
 */
const SQL_ANY_CASE =
  '/^\\s*(select\\s[\\s\\S]*\\sfrom\\s|insert\\s+into\\s|update\\s+\\w+\\s+set\\s|delete\\s+from\\s|with\\s+(recursive\\s+)?\\w+(\\s*\\([^)]*\\))?\\s+as\\s*\\(|(create|drop|alter)\\s+(unique\\s+|temp\\s+|temporary\\s+)?(table|index|view|schema|database|extension|function|type|sequence|role)\\s|truncate\\s+(table\\s+)?\\w)/i';

/** The rule that keeps SQL and the database driver in libs/persistence. */
const sqlStaysInPersistence = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        {
          name: 'typeorm',
          message: 'TypeORM stays in libs/persistence; its DataSource type comes from @svc/persistence.',
        },
        { name: 'pg', message: 'The PostgreSQL driver stays in libs/persistence.' },
        { name: 'pg-copy-streams', message: 'The PostgreSQL driver stays in libs/persistence.' },
        {
          name: '@svc/persistence',
          importNames: ['queryRows', 'queryOne', 'queryTextRows', 'bulkInsert'],
          message: 'SQL lives in libs/persistence: add a repository method named by intent.',
        },
      ],
    },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: `TemplateElement[value.raw=${SQL_TEXT}], Literal[value=${SQL_TEXT}]`,
      message: 'SQL lives in libs/persistence: add a repository method named by intent.',
    },
    {
      selector: `TemplateElement[value.raw=${SQL_ANY_CASE}], Literal[value=${SQL_ANY_CASE}]`,
      message: 'SQL lives in libs/persistence: add a repository method named by intent.',
    },
    {
      selector: "CallExpression[callee.name='require'][arguments.0.value=/^(pg|pg-copy-streams|typeorm)$/]",
      message: 'The PostgreSQL driver and TypeORM stay in libs/persistence.',
    },
  ],
};

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'var/**',
      'tmp/**',
      '.nx/**',
      '**/*.mjs',
      'libs/client/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  { plugins: { '@nx': nx } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints },
      ],
    },
  },
  {
    // The browser bundle has its own compiler settings (DOM library, JSX).
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    languageOptions: {
      parserOptions: { project: './apps/web/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Test code: the specs, the testing library, a library's testing/ folder (fixtures, contract
    // suites), the tools, and the apps' test folders (the security and fault suites, their helpers).
    files: [
      '**/*.spec.ts',
      'libs/testing/**/*.ts',
      'libs/*/testing/**/*.ts',
      'tools/**/*.ts',
      'apps/*/test/**/*.ts',
    ],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: specDepConstraints },
      ],
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Persistence owns the SQL: code elsewhere calls a repository method named by intent. Tests and
    // the testing library, which set up and inspect rows directly, are exempt.
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'tools/**/*.ts'],
    ignores: ['libs/persistence/**', 'libs/testing/**', '**/*.spec.ts'],
    rules: sqlStaysInPersistence,
  },
  {
    // Scripts and configuration in plain JavaScript: the same boundary, without type information.
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        __filename: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/no-require-imports': 'off',
      ...sqlStaysInPersistence,
    },
  },
  prettier,
];
