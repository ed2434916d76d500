// Text mode's stdout: the main agent's words as they arrive, each reply as its own paragraph;
// sub-agents' text stays out of it (their reports reach the main agent, which tells the user).
import type { AgentEvent } from '../../core/events.js';

export interface MainTextStream {
  event(event: AgentEvent): void;
  /** The run ended: print its result if nothing was streamed, and end the last line. */
  finish(result: string): void;
}

export function mainTextStream(write: (text: string) => void): MainTextStream {
  /** Whether any text reached stdout, and whether the current reply has printed some yet. */
  let printedAny = false;
  let printedInReply = false;
  let lineOpen = false;
  const print = (text: string) => {
    write(text);
    printedAny = true;
    lineOpen = !text.endsWith('\n');
  };
  const endLine = () => {
    if (lineOpen) print('\n');
  };

  return {
    event(event) {
      if (event.depth !== 0) return;
      switch (event.type) {
        case 'message_start':
          printedInReply = false;
          return;
        case 'message_delta':
          if (event.text === '') return;
          // A blank line between replies, as between paragraphs.
          if (!printedInReply && printedAny) print('\n');
          printedInReply = true;
          print(event.text);
          return;
        case 'message_end':
        case 'retry':
          // After a retry the reply starts over: what was printed stays, the new one follows.
          endLine();
          return;
        default:
          return;
      }
    },
    finish(result) {
      if (!printedAny && result !== '') print(`${result}\n`);
      endLine();
    },
  };
}
