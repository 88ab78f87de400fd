import { summarise, formatSummary, type MutationReport, type ReportMutant } from './summary';

let id = 0;
const mutant = (
  status: ReportMutant['status'],
  line = 1,
  mutatorName = 'EqualityOperator',
): ReportMutant => ({
  id: String(++id),
  mutatorName,
  replacement: 'a !== b',
  status,
  location: { start: { line, column: 1 } },
});

const report = (files: Record<string, ReportMutant[]>): MutationReport => ({
  files: Object.fromEntries(Object.entries(files).map(([file, mutants]) => [file, { mutants }])),
});

describe('mutation summary', () => {
  it('scores domain/ as one module: timeouts detected, compile errors not counted, no coverage undetected', () => {
    const summary = summarise(
      report({
        'domain/src/quotas.ts': [
          mutant('Killed'),
          mutant('Killed'),
          mutant('Timeout'),
          mutant('CompileError'),
        ],
        'domain/src/money.ts': [mutant('Killed'), mutant('NoCoverage', 7)],
      }),
      [],
    );
    expect(summary.modules).toEqual([{ module: 'domain/', detected: 4, undetected: 1, score: 80 }]);
    expect(summary.failures).toEqual(['domain/ scores 80.0 %, under 85 %']);
    expect(summary.survivors).toEqual([
      expect.objectContaining({ file: 'domain/src/money.ts', line: 7, status: 'NoCoverage', accepted: null }),
    ]);
  });

  it('meets the bar at 85 % in domain/ even with survivors there', () => {
    const mutants = [
      ...Array.from({ length: 17 }, () => mutant('Killed')),
      mutant('Survived'),
      mutant('Survived'),
      mutant('Survived'),
    ];
    const summary = summarise(report({ 'domain/src/dates.ts': mutants }), []);
    expect(summary.modules[0]!.score).toBe(85);
    expect(summary.failures).toEqual([]);
  });

  it('fails on a survivor in a deciding module unless it is an accepted equivalent, with its reason', () => {
    const files = report({
      'domain/src/money.ts': [mutant('Killed')],
      'infra/src/leases/index.ts': [mutant('Killed'), mutant('Survived', 42, 'ConditionalExpression')],
    });
    expect(summarise(files, []).failures).toEqual([
      '1 surviving mutants in deciding modules are neither killed nor accepted equivalents',
    ]);
    const accepted = [
      {
        file: 'infra/src/leases/index.ts',
        line: 42,
        mutator: 'ConditionalExpression',
        reason: 'retry loop bound',
      },
    ];
    const summary = summarise(files, accepted);
    expect(summary.failures).toEqual([]);
    expect(summary.modules.map((m) => m.module)).toEqual(['domain/', 'infra/src/leases/index.ts']);
    expect(formatSummary(summary)).toContain('infra/src/leases/index.ts:42 ConditionalExpression');
    expect(formatSummary(summary)).toContain('accepted: retry loop bound');
    // an accepted equivalent elsewhere on the file does not excuse this one
    expect(summarise(files, [{ ...accepted[0]!, line: 41 }]).failures).toHaveLength(1);
    // nor one elsewhere on the line, when the entry names its column
    expect(summarise(files, [{ ...accepted[0]!, column: 9 }]).failures).toHaveLength(1);
    expect(summarise(files, [{ ...accepted[0]!, column: 1 }]).failures).toEqual([]);
  });
});
