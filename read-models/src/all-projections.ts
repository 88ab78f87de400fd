/** Every event-store read model, in one list: the standalone, the projector and the API use it. */
import { accountProjections } from './accounts';
import { variationAlertsProjection } from './alerts';
import { archiveProjections } from './archive';
import { bulkSearchesProjection } from './bulk-searches';
import { undertakingGroupsProjection } from './groups';
import { issuedReportsProjection } from './issued-reports';
import { subscriberIdOf, type Projection } from './projection';
import { savedSearchesProjection } from './searches';

export const ALL_PROJECTIONS: readonly Projection[] = [
  ...accountProjections,
  ...archiveProjections,
  savedSearchesProjection,
  variationAlertsProjection,
  bulkSearchesProjection,
  undertakingGroupsProjection,
  issuedReportsProjection,
];

/** The checkpoint names of every projection (read-your-writes waits for them). */
export const ALL_PROJECTION_SUBSCRIBERS: readonly string[] = ALL_PROJECTIONS.map(subscriberIdOf);
