import { useEffect, useRef, useState } from 'react';
import type { SyncRunDto } from '@rna/domain';
import { api } from '../../lib/api';
import { useAppDispatch } from '../../lib/hooks';
import { showSuccess } from '../../lib/session/status-slice';
import { syncPollDelay } from './sync-poll';
import { useGetSyncStatusQuery } from './sync-api';

/**
 * A run that ended well having imported nothing (every file unchanged, or none to look at): "Sync
 * completata" after "(0/0)" would suggest work done, so the screen says the archive was already up to date.
 */
export function leftArchiveAsItWas(run: SyncRunDto | null | undefined): boolean {
  return run?.status === 'SUCCESS' && run.succeeded === 0 && run.failed === 0;
}

/**
 * The run's status: one check on opening, then every second while a run (or the indexing after it)
 * goes on. A failed check is tried again, later each time, instead of leaving the last answer on
 * screen: a run that ended while the status could not be read is seen as ended at the next answer.
 * When a run ends, everything it changed is read again, search results included.
 */
export function useSyncTracking() {
  const dispatch = useAppDispatch();
  const [tracking, setTracking] = useState(true);
  const [failures, setFailures] = useState(0);
  const status = useGetSyncStatusQuery(undefined, {
    pollingInterval: tracking || failures > 0 ? syncPollDelay(failures) : 0,
  });
  const running = Boolean(status.data?.running);
  // after the run, the index may still be applying its aids: the screen follows until it has
  const indexing = Boolean(status.data?.indexing);
  const wasRunning = useRef(false);
  const wasIndexing = useRef(false);

  useEffect(() => {
    if (status.isError) {
      console.warn('sync status check failed', status.error);
      setFailures((n) => n + 1);
    }
  }, [status.isError, status.error]);

  useEffect(() => {
    if (!status.isSuccess || status.isFetching) return;
    setFailures(0);
    if (running) {
      wasRunning.current = true;
      setTracking(true);
      return;
    }
    if (wasRunning.current) {
      wasRunning.current = false;
      dispatch(showSuccess(leftArchiveAsItWas(status.data?.run) ? 'sync.nothingChanged' : 'sync.completed'));
      dispatch(
        api.util.invalidateTags(['ArchiveFile', 'ArchiveStats', 'SyncResult', 'LastUpdate', 'SearchResult']),
      );
    }
    if (indexing) setTracking(true);
    else {
      if (wasIndexing.current)
        dispatch(api.util.invalidateTags(['ArchiveStats', 'LastUpdate', 'SearchResult']));
      setTracking(false);
    }
    wasIndexing.current = indexing;
  }, [status.isSuccess, status.isFetching, status.data, running, indexing, dispatch]);

  /** a run this screen just started: follow it from now */
  const follow = () => {
    wasRunning.current = true;
    setTracking(true);
  };

  return {
    status,
    running,
    /** the status could not be read: the next try is in `retryInMs` */
    unreadable:
      failures > 0 ? { retryInMs: syncPollDelay(failures), retry: () => void status.refetch() } : null,
    follow,
  };
}
