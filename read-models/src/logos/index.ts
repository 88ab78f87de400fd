/**
 * The logos read model. Deleted logos stay as tombstones (deleted: true) so that their ids and
 * image names are never reused: image URLs can then be cached safely.
 */
import type { LogoEvent, PdfConfig } from '@rna/domain';
import { updateDocument, type Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const LOGOS_COLLECTION = 'logos';

export const DEFAULT_PDF_CONFIG: PdfConfig = { primaryColor: '#1F4E79', footer1: '', footer2: '' };

export interface LogoReadModel extends Doc {
  logoId: number;
  name: string;
  fileName: string;
  contentType: string;
  pdfConfig: PdfConfig;
  subRenewUrl: string;
  uploadedAt: number;
  deleted: boolean;
}

export const logosProjection: Projection<LogoEvent> = {
  name: 'logos',
  collections: [LOGOS_COLLECTION],
  handles: ['LogoUploaded', 'LogoPdfConfigSet', 'LogoDeleted'],
  async apply(event, stores) {
    const logos = stores.documents.collection<LogoReadModel>(LOGOS_COLLECTION);
    const id = String(event.data.logoId);
    await updateDocument(logos, id, (current) => {
      switch (event.type) {
        case 'LogoUploaded': {
          const d = event.data;
          return {
            id,
            logoId: d.logoId,
            name: d.name,
            fileName: d.fileName,
            contentType: d.contentType,
            pdfConfig: current?.pdfConfig ?? DEFAULT_PDF_CONFIG,
            subRenewUrl: current?.subRenewUrl ?? '',
            uploadedAt: new Date(d.at).getTime(),
            deleted: false,
          };
        }
        case 'LogoPdfConfigSet':
          return current
            ? { ...current, pdfConfig: event.data.pdfConfig, subRenewUrl: event.data.subRenewUrl }
            : null;
        case 'LogoDeleted':
          return current ? { ...current, deleted: true } : null;
      }
    });
  },
  async reset(stores) {
    await stores.documents.collection(LOGOS_COLLECTION).clear();
  },
};
