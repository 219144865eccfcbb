// Types of transcript-fixture.mjs (the bench and the scroll test share it).

/** The stored UI messages of a session: a user message and an assistant message with `cards` tool parts. */
export function transcript(cards: number): Array<Record<string, unknown>>;
