/**
 * Undo and redo of the page's book edits. Each edit is kept as the two requests that make it
 * and take it back, both written with the API the edit itself used (`POST /api/move`,
 * `POST /api/move/remove`), so that undoing needs nothing from the server that editing did
 * not. Undo restores only the fields the edit changed: a field another tab changed meanwhile
 * stays as that tab left it. The history lives in the page (a reload forgets it), as in a
 * text editor; the edits themselves are in the book at once.
 */

/** One request to the edit API: its path and JSON body (book, fen, play and move included). */
export interface EditRequest {
  path: '/api/move' | '/api/move/remove';
  body: Record<string, unknown>;
}

export interface Edit {
  /** What the edit did, for the status line and the buttons' titles: "the notes of Nf3 after 1. e4 e5". */
  label: string;
  undo: EditRequest;
  redo: EditRequest;
}

/** The notes of a move as the explorer shows them. */
export interface MoveNotes {
  userValue: number | null;
  nag: number | null;
  comment: string | null;
  forbidden: boolean;
}

/** How many edits are kept; the oldest go first. */
const LIMIT = 200;

export class EditHistory {
  private done: Edit[] = [];
  private undone: Edit[] = [];

  /** A new edit: it can be undone, and what was undone before it can no longer be redone. */
  record(edit: Edit): void {
    this.done.push(edit);
    if (this.done.length > LIMIT) this.done.shift();
    this.undone = [];
  }

  nextUndo(): Edit | undefined {
    return this.done.at(-1);
  }

  nextRedo(): Edit | undefined {
    return this.undone.at(-1);
  }

  /** Moves the last edit to the redo list, once its undo request has succeeded. */
  undid(): void {
    const e = this.done.pop();
    if (e !== undefined) this.undone.push(e);
  }

  /** Moves the last undone edit back, once its redo request has succeeded. */
  redid(): void {
    const e = this.undone.pop();
    if (e !== undefined) this.done.push(e);
  }
}

/**
 * The requests of a note edit. `patch` holds the fields the user changed, `before` the move's
 * notes as the editor showed them; `added` is the server's answer: the move was not in the
 * book, so undoing removes it again.
 */
export function noteEdit(target: Record<string, unknown>, patch: Partial<MoveNotes>, before: MoveNotes, added: boolean, label: string): Edit {
  const old: Record<string, unknown> = {};
  for (const k of Object.keys(patch) as (keyof MoveNotes)[]) old[k] = before[k];
  return {
    label,
    redo: { path: '/api/move', body: { ...target, ...patch } },
    undo: added ? { path: '/api/move/remove', body: target } : { path: '/api/move', body: { ...target, ...old } },
  };
}

/** The requests of removing a move that only notes held: undoing adds it back with them. */
export function removal(target: Record<string, unknown>, notes: MoveNotes, label: string): Edit {
  return {
    label,
    redo: { path: '/api/move/remove', body: target },
    undo: { path: '/api/move', body: { ...target, ...notes } },
  };
}

/**
 * Where a move stands, in words: "Nf3 after 1. e4 e5", "e4 at the start", with the move
 * numbers of a start position from a FEN ("Nd7 after 12... Be7 13. Qc2").
 */
export function placeLabel(san: string, sans: readonly string[], startFen: string): string {
  if (sans.length === 0) return `${san} at the start`;
  const fields = startFen.split(' ');
  const blackFirst = fields[1] === 'b' ? 1 : 0;
  const first = Number.parseInt(fields[5] ?? '1', 10) || 1;
  const moves = sans.map((s, i) => {
    const ply = i + blackFirst;
    const n = first + Math.floor(ply / 2);
    return ply % 2 === 0 ? `${n}. ${s}` : i === 0 ? `${n}... ${s}` : s;
  });
  return `${san} after ${moves.join(' ')}`;
}
