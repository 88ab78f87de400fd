/**
 * A decider (Jérémie Chassaing's pattern, as emmett names it): the rule of one stream as three pure
 * parts. `evolve` folds the stream's events into a state, `decide` turns a command and that state into
 * the events to append (or refuses with a DomainError). The API reads the stream, decides, appends at
 * the version it read; the rule itself never touches a store, so it is tested given/when/then.
 */
import type { EventShape } from './events';

export interface Decider<Command, Event extends EventShape, State> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

/** The state after the events, oldest first. */
export function stateOf<Event extends EventShape, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
): State {
  let state = decider.initialState;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
