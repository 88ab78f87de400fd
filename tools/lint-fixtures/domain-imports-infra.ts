// lint as: domain/src/aids/fixture.ts
// The domain is the bottom layer: it may not reach for an adapter.
import { openStores } from '@rna/infra/engines';

export const stores = openStores;
