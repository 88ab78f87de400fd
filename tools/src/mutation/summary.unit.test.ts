import { expectedModules, summarise, formatSummary, type MutationReport, type ReportMutant } from './summary';

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

  it('does not meet the bar when a module it must mutate has no report, naming the run that makes one', () => {
    const expected = expectedModules({
      domain: ['domain/src/**/*.ts', '!domain/src/**/*.test.ts'],
      deciding: ['infra/src/leases/index.ts', 'infra/src/message-log/kafka-message-log.ts:89-126'],
    });
    expect(expected).toEqual([
      'domain/',
      'infra/src/leases/index.ts',
      'infra/src/message-log/kafka-message-log.ts',
    ]);
    const onlyLeases = report({ 'infra/src/leases/index.ts': [mutant('Killed')] });
    const summary = summarise(onlyLeases, [], expected);
    expect(summary.failures).toEqual([
      'domain/ has no report: run npm run test:mutation:domain',
      'infra/src/message-log/kafka-message-log.ts has no report: run MUTATION_SCOPE=deciding ' +
        'MUTATION_ONLY=kafka-message-log npx stryker run tools/mutation/stryker.config.mjs',
    ]);
    expect(formatSummary(summary)).toContain('mutation bar NOT met');
    // with every expected module reported, the same rules as before decide
    const all = report({
      'domain/src/money.ts': [mutant('Killed')],
      'infra/src/leases/index.ts': [mutant('Killed')],
      'infra/src/message-log/kafka-message-log.ts': [mutant('Killed')],
    });
    expect(summarise(all, [], expected).failures).toEqual([]);
  });
});
