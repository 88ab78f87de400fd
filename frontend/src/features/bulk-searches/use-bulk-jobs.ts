import { useEffect, useState } from 'react';
import { isUnderWay } from './bulk-job-rules';
import { useGetBulkJobsQuery } from './bulk-searches-api';

/**
 * The user's jobs, read again every `intervalMs` while one of them is queued or running and not at all
 * otherwise. The state comes from the server, so a reload (or a restart of the portal) shows the same;
 * it is read again on every visit (a job may have finished, or been downloaded elsewhere, meanwhile).
 */
export function usePolledBulkJobs(intervalMs: number) {
  const [polling, setPolling] = useState(false);
  const jobs = useGetBulkJobsQuery(undefined, {
    pollingInterval: polling ? intervalMs : 0,
    refetchOnMountOrArgChange: true,
  });
  const underWay = (jobs.data ?? []).some(isUnderWay);
  useEffect(() => setPolling(underWay), [underWay]);
  return jobs;
}
