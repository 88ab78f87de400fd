import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { SignedInLayout, SignedOutLayout } from '../features/layout';
import { useUser } from '../lib/session/use-user';

// one chunk per route (Highcharts travels only with the documents chunk)
const LoginPage = lazy(() => import('../features/auth/login-page'));
const ForgotPage = lazy(() => import('../features/auth/forgot-page'));
const ResetPage = lazy(() => import('../features/auth/reset-page'));
const HomeRoute = lazy(() => import('./home-route'));
const DocumentsPage = lazy(() => import('../features/documents/documents-page'));
const ClientsRoute = lazy(() => import('./clients-route'));
const SyncPage = lazy(() => import('../features/sync/sync-page'));
const AuditRoute = lazy(() => import('./audit-route'));
const BulkSearchPage = lazy(() => import('../features/bulk-searches/bulk-search-page'));
const GroupsPage = lazy(() => import('../features/groups/groups-page'));
const VerificationPage = lazy(() => import('../features/verification/verification-page'));

export function AppRoutes() {
  const user = useUser();
  // the session state is not known yet: an empty screen (SPEC §2)
  if (user === undefined) return <div className="app-pending" aria-busy="true" />;
  if (user === null) {
    return (
      <Routes>
        <Route element={<SignedOutLayout />}>
          <Route index element={<LoginPage />} />
          <Route path="forgot" element={<ForgotPage />} />
          <Route path="reset-password" element={<ResetPage />} />
          {/* a report's verification is public: whoever holds the report may check it */}
          <Route path="verifica/:code?" element={<VerificationPage />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    );
  }
  const admin = user.role === 'ADMIN';
  return (
    <Routes>
      <Route element={<SignedInLayout user={user} />}>
        <Route index element={<HomeRoute />} />
        <Route path="documents" element={<DocumentsPage />} />
        <Route path="ricerca-massiva" element={<BulkSearchPage />} />
        <Route path="imprese-uniche" element={<GroupsPage />} />
        <Route path="verifica/:code?" element={<VerificationPage />} />
        {admin && <Route path="clients" element={<ClientsRoute />} />}
        {admin && <Route path="sync" element={<SyncPage />} />}
        {admin && <Route path="audit" element={<AuditRoute />} />}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
