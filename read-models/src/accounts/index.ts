/** The read models of the accounts feature (clients, users, logos), for the projector to run. */
import { clientsProjection } from '../clients';
import { logosProjection } from '../logos';
import { usersProjection } from '../users';
import type { Projection } from '../projection';

export * from '../clients';
export * from '../logos';
export * from '../users';

export const accountProjections: readonly Projection[] = [
  clientsProjection,
  usersProjection,
  logosProjection,
];
