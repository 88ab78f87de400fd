/**
 * Given/when/then for deciders (as emmett's DeciderSpecification): given the events already in the
 * stream, when a command arrives, then these events are decided — or this DomainError code refuses it.
 * For tests only (it asserts with jest's expect); `@rna/domain/testing` is never imported by features.
 */
import type { Decider } from '../decider';
import { stateOf } from '../decider';
import { DomainError, type ErrorCode } from '../errors';
import type { EventShape } from '../events';

export interface DeciderSpecification<Command, Event extends EventShape> {
  given(events: readonly Event[]): {
    when(command: Command): {
      then(expected: readonly Event[]): void;
      thenThrows(code: ErrorCode): void;
    };
  };
}

export function deciderSpecification<Command, Event extends EventShape, State>(
  decider: Decider<Command, Event, State>,
): DeciderSpecification<Command, Event> {
  return {
    given: (events) => ({
      when: (command) => {
        const decide = () => decider.decide(command, stateOf(decider, events));
        return {
          then: (expected) => expect(decide()).toEqual(expected),
          thenThrows: (code) => {
            let refusal: unknown = null;
            try {
              const decided = decide();
              refusal = new Error(`expected ${code}, but it decided ${JSON.stringify(decided)}`);
            } catch (error) {
              refusal = error;
            }
            expect(refusal).toBeInstanceOf(DomainError);
            expect((refusal as DomainError).code).toBe(code);
          },
        };
      },
    }),
  };
}
