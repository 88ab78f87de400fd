// lint as: frontend/src/features/fixture.tsx
// The browser gets the domain's types and pure rules, never an adapter.
import { createMailer } from '@rna/infra/mail';

export const mailer = createMailer;
