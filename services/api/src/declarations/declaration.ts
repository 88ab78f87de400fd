/**
 * What the de minimis self-declaration states from the register: the undertaking, the planned grant,
 * every de minimis aid its headroom counts and the headroom itself. The aids are the domain's own
 * list (headroomWindowAids), so the declaration never lists an aid the headroom leaves out, or the
 * reverse.
 */
import {
  deMinimisHeadroom,
  headroomWindowAids,
  type AidRecord,
  type CodeSourceDto,
  type DeMinimisRegime,
  type HeadroomDto,
  type UndertakingGroupDto,
} from '@rna/domain';
import { headroomAidOf } from '../de-minimis/headroom-aids';
import type { FoundAids } from '../documents/search';
import type { ArchiveExtent, ReportBranding, ReportVerification } from '../reports/report-input';

export interface DeclaredAid {
  dataConcessione: string;
  taxCode: string;
  soggettoConcedente: string;
  codRegolamento: string;
  desRegolamento: string;
  cor: string;
  elementoDiAiutoCents: number;
  regime: DeMinimisRegime;
}

export interface DeclarationFacts {
  /** the group's name when the undertaking is one of the user's groups */
  group: { name: string } | null;
  /** each member as the register names it (null: no aid of it in the register) */
  companies: { taxCode: string; name: string | null }[];
  headroom: Omit<HeadroomDto, 'group'>;
  /** oldest first, as a declaration reads */
  aids: DeclaredAid[];
  sources: CodeSourceDto[];
}

export interface DeclarationInput extends DeclarationFacts {
  branding: ReportBranding;
  generatedAt: Date;
  /** printed on every page, like a report's */
  verification?: ReportVerification;
  archive?: ArchiveExtent | null;
}

/** The facts of a declaration for `taxCodes` (a group's members, or the codes asked) from their aids. */
export function declarationFacts(
  asked: { taxCodes: string[]; date: string; regime: DeMinimisRegime; group: UndertakingGroupDto | null },
  found: FoundAids,
): DeclarationFacts {
  const read = found.aids.map((record: AidRecord) => ({ ...headroomAidOf(record), record }));
  const headroom = deMinimisHeadroom(asked.taxCodes, read, asked.date, asked.regime);
  const aids = headroomWindowAids(asked.taxCodes, read, asked.date, asked.regime)
    // an aid outside every limit of the planned regime does not count, so it is not declared
    .filter((counted) => counted.limited)
    .map(({ aid: { record }, regime }) => ({
      dataConcessione: record.dataConcessione,
      taxCode: record.codiceFiscaleBeneficiario,
      soggettoConcedente: record.soggettoConcedente,
      codRegolamento: record.codRegolamento,
      desRegolamento: record.desRegolamento,
      cor: record.cor,
      elementoDiAiutoCents: record.elementoDiAiutoCents,
      regime,
    }))
    .sort(
      (a, b) =>
        a.dataConcessione.localeCompare(b.dataConcessione) ||
        a.taxCode.localeCompare(b.taxCode) ||
        a.cor.localeCompare(b.cor),
    );
  return {
    group: asked.group ? { name: asked.group.name } : null,
    companies: headroom.perCompany.map(({ taxCode, name }) => ({ taxCode, name })),
    headroom,
    aids,
    sources: found.sources,
  };
}
