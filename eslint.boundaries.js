// The boundaries of ARCHITECTURE.md, as import rules: a layer imports only the layers below it, and
// services talk through events, never through one another's code. Standalone and tools compose them.
const workspace = (name) => ({ group: [`@rna/${name}`, `@rna/${name}/*`] });
const restrict = (forbidden, why) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: forbidden.map((name) => ({ ...workspace(name), message: `${why} (ARCHITECTURE.md).` })),
    },
  ],
});
const SERVICES = ['api', 'sync', 'projector', 'standalone', 'tools'];
const boundaries = [
  {
    files: ['domain/src/**/*.ts'],
    rules: restrict(['infra', 'read-models', ...SERVICES], 'The domain imports no other workspace'),
  },
  {
    files: ['read-models/src/**/*.ts'],
    rules: restrict(SERVICES, 'Read models build on the domain and the ports of infra only'),
  },
  {
    files: ['infra/src/**/*.ts'],
    rules: restrict(['read-models', ...SERVICES], 'Infra imports only the domain'),
  },
  ...['api', 'sync', 'projector'].map((service) => ({
    files: [`services/${service}/src/**/*.ts`],
    rules: restrict(
      SERVICES.filter((other) => other !== service),
      'Services talk through events: a service imports domain, read models and infra, never another service',
    ),
  })),
  {
    files: ['services/standalone/src/**/*.ts'],
    rules: restrict(
      ['tools'],
      'The portal composes the services; the tooling (mirror, generator, benches) is not shipped in it',
    ),
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    rules: restrict(
      ['infra', 'read-models', ...SERVICES],
      'The front end imports only the domain (types and pure rules)',
    ),
  },
];
module.exports = { boundaries };
