import type { ClientDto, InvitedClientDto } from '@rna/domain';
import { api } from '../../lib/api';
import { downloadFileName } from '../../lib/domain-rules';
import { saveAs } from '../../lib/download';

const INVITE_TIMEOUT_MS = 60_000;
const clientTags = (id: string) => [
  { type: 'Client' as const, id },
  { type: 'Client' as const, id: 'LIST' },
];

export const clientsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getClients: build.query<ClientDto[], void>({
      query: () => '/clients',
      providesTags: (result) => [
        { type: 'Client', id: 'LIST' },
        ...(result ?? []).map((c) => ({ type: 'Client' as const, id: c.id })),
      ],
    }),
    exportClients: build.mutation<null, void>({
      query: () => ({
        url: '/clients/export',
        responseHandler: saveAs(downloadFileName('clienti', 'xlsx', Date.now())),
      }),
    }),
    inviteClient: build.mutation<InvitedClientDto, { email: string; fixedTaxCode?: string }>({
      query: (body) => ({ url: '/clients/invite', method: 'POST', body, timeout: INVITE_TIMEOUT_MS }),
      invalidatesTags: [{ type: 'Client', id: 'LIST' }],
    }),
    deleteClient: build.mutation<void, string>({
      query: (id) => ({ url: `/clients/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => clientTags(id),
    }),
    changeLogo: build.mutation<ClientDto, { id: string; logoId: number }>({
      query: ({ id, logoId }) => ({
        url: `/clients/${encodeURIComponent(id)}/change-logo`,
        method: 'POST',
        body: { logoId },
      }),
      invalidatesTags: (_r, _e, { id }) => clientTags(id),
    }),
    setFixedTaxCode: build.mutation<ClientDto, { id: string; code: string }>({
      query: ({ id, code }) => ({
        url: `/clients/${encodeURIComponent(id)}/fixed-tax-code/${encodeURIComponent(code)}`,
        method: 'PUT',
      }),
      invalidatesTags: (_r, _e, { id }) => clientTags(id),
    }),
    removeFixedTaxCode: build.mutation<ClientDto, string>({
      query: (id) => ({ url: `/clients/${encodeURIComponent(id)}/fixed-tax-code`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => clientTags(id),
    }),
    setLimits: build.mutation<
      ClientDto,
      { id: string; availableYearlySearches: number; remainingSearches: number; endDate: number }
    >({
      query: ({ id, ...body }) => ({ url: `/clients/${encodeURIComponent(id)}/limits`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => clientTags(id),
    }),
    setPdfEnabled: build.mutation<ClientDto, { id: string; enabled: boolean }>({
      query: ({ id, enabled }) => ({
        url: `/clients/${encodeURIComponent(id)}/pdf-enabled`,
        method: 'PUT',
        body: { enabled },
      }),
      invalidatesTags: (_r, _e, { id }) => clientTags(id),
    }),
    setVariationAlerts: build.mutation<ClientDto, { id: string; enable: boolean }>({
      query: ({ id, enable }) => ({
        url: `/clients/${encodeURIComponent(id)}/enable-variation-alerts`,
        method: 'PUT',
        body: { enable },
      }),
      invalidatesTags: (_r, _e, { id }) => clientTags(id),
    }),
    renewClient: build.mutation<ClientDto, string>({
      query: (id) => ({ url: `/clients/${encodeURIComponent(id)}/renew`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => clientTags(id),
    }),
  }),
});

export const {
  useGetClientsQuery,
  useExportClientsMutation,
  useInviteClientMutation,
  useDeleteClientMutation,
  useChangeLogoMutation,
  useSetFixedTaxCodeMutation,
  useRemoveFixedTaxCodeMutation,
  useSetLimitsMutation,
  useSetPdfEnabledMutation,
  useSetVariationAlertsMutation,
  useRenewClientMutation,
} = clientsApi;
