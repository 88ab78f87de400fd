import { BulkReadyNotices } from '../features/bulk-searches/bulk-ready-notices';
import HomePage from '../features/home/home-page';

/** Composes the home page with the bulk searches' ready notices, so neither feature imports the other. */
export default function HomeRoute() {
  return <HomePage notices={<BulkReadyNotices />} />;
}
