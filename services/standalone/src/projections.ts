/**
 * The read-model projections the portal runs, in their own module: the rebuild replays them
 * without loading the API the portal module composes (express, the report libraries…).
 */
import { ALL_PROJECTIONS, type Projection } from '@rna/read-models';

export function allProjections(): Projection[] {
  return [...ALL_PROJECTIONS];
}
