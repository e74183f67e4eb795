import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '**/.data', '**/coverage', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    rules: {
      // Libs are reached only through their public entry, and web and api never import each other.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // A path's id is read in lower case, one way (apps/api/src/common/http/id-param.ts says why).
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/common/http/id-param.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@nestjs/common', importNames: ['Param'], message: 'read a path id with IdParam (common/http/id-param.ts), in lower case' }] },
      ],
    },
  },
];
