/**
 * The page of `tabiya serve`: a board (cm-chessboard, MIT), the book table of the current
 * position in the manner of the Lichess opening explorer, note editing for .tbk books, the
 * engine in a Web Worker, and play against it from any position. State lives in the URL
 * (book, fen, play, at), so a link restores the position and the line.
 */
import { BORDER_TYPE, COLOR, Chessboard, INPUT_EVENT_TYPE, type MoveInputEvent } from 'cm-chessboard/src/Chessboard.js';
import { Accessibility } from 'cm-chessboard/src/extensions/accessibility/Accessibility.js';
import { ARROW_TYPE, Arrows } from 'cm-chessboard/src/extensions/arrows/Arrows.js';
import { MARKER_TYPE, Markers } from 'cm-chessboard/src/extensions/markers/Markers.js';
import { PROMOTION_DIALOG_RESULT_TYPE, PromotionDialog } from 'cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js';
import { countLegal } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { STARTING_FEN } from '../notation/fen.js';
import { makeSan } from '../notation/san.js';
import { parseUci } from '../notation/uci.js';
import type { ExplorerAnswer } from '../serve/explorer.js';
import { BrowserEngine, type EngineInfo } from '../engine/browserEngine.js';
import { EditHistory, type EditRequest, type MoveNotes, noteEdit, placeLabel, removal } from './history.js';
import { Line } from './line.js';

interface Config {
  books: { id: string; format: 'bin' | 'tbk'; editable: boolean }[];
  readOnly: boolean;
  engineThreads: number;
  policies: string[];
  /** Which start of the server this is (a stored token is used only with the same one). */
  serverId: string;
}

type Explorer = ExplorerAnswer;
type ExplorerMove = Explorer['moves'][number];

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const meta = (name: string): string => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
const config = JSON.parse(meta('tabiya-config')) as Config;
/**
 * The write token: the server puts it in the page only when the page is opened with the address
 * `tabiya serve` printed (`?token=…`), which other accounts of the machine do not see. It is
 * kept in this browser for this server's start, so that reloads and links without it still
 * edit; the address bar loses it, so a copied link does not carry it.
 */
const TOKEN_KEY = 'tabiya-token';
const token = ((): string => {
  const given = meta('tabiya-token');
  if (given !== '') {
    localStorage.setItem(TOKEN_KEY, JSON.stringify({ server: config.serverId, token: given }));
    return given;
  }
  try {
    const kept = JSON.parse(localStorage.getItem(TOKEN_KEY) ?? 'null') as { server?: string; token?: string } | null;
    return kept?.server === config.serverId && typeof kept.token === 'string' ? kept.token : '';
  } catch {
    return '';
  }
})();
if (new URLSearchParams(location.search).has('token')) {
  const q = new URLSearchParams(location.search);
  q.delete('token');
  history.replaceState(null, '', q.toString() === '' ? location.pathname : `?${q.toString()}`);
}
/** Can this page write (the server is not read-only and the page has the token)? */
const mayWrite = token !== '' && !config.readOnly;
const NAGS: Record<number, string> = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };
/**
 * How the table shows a NAG: the move NAGs of the menu and the common position NAGs as the
 * symbols of printed annotation (the PGN standard, section 10; ChessBase and Lichess show them so),
 * any other as `$n`. Slight advantages are written +=/=+: ⩲ and ⩱ are missing from common fonts.
 */
const NAG_SYMBOLS: Record<number, string> = { ...NAGS, 7: '□', 10: '=', 13: '∞', 14: '+=', 15: '=+', 16: '±', 17: '∓', 18: '+−', 19: '−+', 22: '⊙', 23: '⊙', 146: 'N' };
const nagText = (nag: number): string => NAG_SYMBOLS[nag] ?? `$${nag}`;

const line = new Line();
let bookId = config.books[0]?.id ?? '';
let policy = 'terra';
let explorer: Explorer | undefined;
let explorerFor = '';
let fetchSeq = 0;
const engine = new BrowserEngine({ assets: '/assets/', threads: config.engineThreads > 0 ? config.engineThreads : autoThreads() });
let analysing = false;
let pvLines: (EngineInfo | undefined)[] = [];
let game: { human: 'w' | 'b'; clock: [number, number]; inc: number; tick: number; over: string; timer: number } | undefined;

// --- theme ---------------------------------------------------------------------------------
const savedTheme = localStorage.getItem('tabiya-theme');
if (savedTheme === 'dark' || savedTheme === 'light') document.documentElement.dataset.theme = savedTheme;
function toggleTheme(): void {
  const dark = document.documentElement.dataset.theme === 'dark' || (document.documentElement.dataset.theme === undefined && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'light' : 'dark';
  localStorage.setItem('tabiya-theme', document.documentElement.dataset.theme);
}

// --- board ---------------------------------------------------------------------------------
const board = new Chessboard($('board'), {
  position: STARTING_FEN,
  assetsUrl: '/assets/',
  style: { borderType: BORDER_TYPE.none, pieces: { file: 'pieces.svg' }, animationDuration: 150, cssClass: 'tabiya' },
  extensions: [
    { class: Markers, props: { sprite: 'markers.svg', autoMarkers: MARKER_TYPE.square } },
    { class: Arrows, props: { sprite: 'arrows.svg' } },
    { class: PromotionDialog },
    // Moves without a mouse: Tab onto the board, arrows to a square, Enter or Space on the piece
    // and on its destination (said through a live region); the pieces listed for screen readers.
    { class: Accessibility, props: { language: 'en', keyboardMoveInput: true, movePieceForm: false, boardAsTable: false, piecesAsList: true, brailleNotationInAlt: false, visuallyHidden: true } },
  ],
});

type Side = typeof COLOR.white | typeof COLOR.black;
/**
 * The side at the bottom of the board, as the page wants it. The board takes a new orientation
 * only when it has redrawn, and refuses a second turn while one is under way (cm-chessboard's
 * setOrientation), so the page keeps its own and turns the board until it matches.
 */
let orientation: Side = COLOR.white;
let turning = false;

/**
 * Turns the board, and the evaluation bar with it (White's end of the bar beside White's side
 * of the board), and keeps the side in the link (`orientation=black`), as the Lichess analysis
 * board keeps it (`?color=black`): a reloaded or shared link to a Black repertoire opens turned.
 */
function orient(color: Side, save = true): void {
  orientation = color;
  void turnBoard();
  $('evalbar').classList.toggle('flipped', color === COLOR.black);
  repertoireLink();
  if (save) saveUrl();
}

async function turnBoard(): Promise<void> {
  if (turning) return;
  turning = true;
  try {
    // A flip pressed again while the board turns is taken up once the turn is done.
    for (let i = 0; i < 4 && board.getOrientation() !== orientation; i++) await board.setOrientation(orientation);
  } finally {
    turning = false;
  }
}

/** The repertoire export is for the side at the bottom of the board, as the Lichess explorer follows the board's orientation. */
function repertoireLink(color = orientation): void {
  const a = $<HTMLAnchorElement>('export-rep-pgn');
  const side = color === COLOR.black ? 'black' : 'white';
  a.textContent = `${side === 'white' ? 'White' : 'Black'} repertoire .pgn`;
  if (a.dataset.here !== undefined) a.href = `/api/export?format=pgn&side=${side}&${a.dataset.here}`;
}

function onMoveInput(e: MoveInputEvent): boolean {
  if (e.type === INPUT_EVENT_TYPE.moveInputStarted) {
    const pos = line.position();
    const side = pos.turn === 0 ? 'w' : 'b';
    if (game !== undefined && (game.over !== '' || game.human !== side)) return false;
    return e.piece?.[0] === side;
  }
  if (e.type === INPUT_EVENT_TYPE.validateMoveInput && e.squareTo !== undefined) {
    const uci = e.squareFrom + e.squareTo;
    if (e.piece?.[1] === 'p' && (e.squareTo[1] === '8' || e.squareTo[1] === '1')) {
      // A promotion: legal at all (as a queen)? Then ask which piece.
      if (!parseUci(line.position(), `${uci}q`).ok) return false;
      board.showPromotionDialog(e.squareTo, e.piece[0] as 'w' | 'b', (r) => {
        if (r.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected && r.piece !== undefined && line.play(uci + r.piece[1])) changed(false);
        else changed(false);
      });
      return true;
    }
    if (!line.play(uci)) return false;
    queueMicrotask(() => changed(false));
    return true;
  }
  return true;
}
board.enableMoveInput(onMoveInput);

// --- the line and its display --------------------------------------------------------------
function changed(animate = true): void {
  const pos = line.position();
  // The editor belongs to the position it was opened on.
  closeEditor();
  void board.setPosition(line.fen().split(' ')[0]!, animate);
  board.removeMarkers(MARKER_TYPE.square);
  board.removeMarkers(MARKER_TYPE.frameDanger);
  // The table's rows are drawn anew for the new position: a move shown from the old one goes.
  previewMove(undefined);
  if (line.at > 0) {
    const u = line.moves[line.at - 1]!;
    board.addMarker(MARKER_TYPE.square, u.slice(0, 2));
    board.addMarker(MARKER_TYPE.square, u.slice(2, 4));
  }
  renderMoves();
  ($('fen') as HTMLInputElement).value = line.fen();
  saveUrl();
  void loadExplorer();
  pvLines = [];
  board.removeArrows();
  renderPvs(pos);
  if (analysing) analyse();
  if (game !== undefined) gameTurn();
}

function renderMoves(): void {
  const el = $('moves');
  const start = line.position(0);
  let ply = (start.fullmoves - 1) * 2 + start.turn;
  const parts: string[] = [];
  line.sans.forEach((san, i) => {
    if (ply % 2 === 0) parts.push(`<span class="num">${ply / 2 + 1}.</span>`);
    else if (i === 0) parts.push(`<span class="num">${(ply - 1) / 2 + 1}…</span>`);
    parts.push(`<button type="button" class="mv${i + 1 === line.at ? ' cur' : ''}" data-ply="${i + 1}">${esc(san)}</button>`);
    ply++;
  });
  // The list is drawn anew: a move button that had the focus hands it to the current move.
  const hadFocus = el.contains(document.activeElement);
  el.innerHTML = parts.length === 0 ? '<span class="muted">Play a move on the board or click one in the book.</span>' : parts.join(' ');
  if (hadFocus) (el.querySelector<HTMLElement>('.cur') ?? $('back')).focus();
  // Scroll the move list only (scrollIntoView would scroll the page too).
  const cur = el.querySelector<HTMLElement>('.cur');
  if (cur !== null && (cur.offsetTop < el.scrollTop || cur.offsetTop + cur.offsetHeight > el.scrollTop + el.clientHeight)) el.scrollTop = cur.offsetTop - el.clientHeight / 2;
}

function goTo(n: number): void {
  if (game !== undefined && game.over === '') return;
  const to = Math.max(0, Math.min(line.moves.length, n));
  if (to === line.at) return;
  line.at = to;
  changed();
}

// --- URL -------------------------------------------------------------------------------------
/**
 * The position shown, as the browser's history tells its entries apart: the book, the start and
 * the moves up to where the board stands. Stepping to another position (a move, ← →, a move of
 * the list, a loaded FEN or PGN, another book) adds an entry, so the browser's Back and Forward
 * go through the positions visited, as they go through the pages of a site; a change that keeps
 * the position (a flip, a policy, moves the line gained beyond it) rewrites the entry in place.
 */
const placeOf = (): string => `${bookId}|${line.startFen}|${line.moves.slice(0, line.at).join(',')}`;
/** No entry is added until the page has shown the position it was opened on. */
let historyStarted = false;

/** Puts the page's state in the link; `push` adds an entry to the history even for the same position. */
function saveUrl(push = false): void {
  const p = new URLSearchParams();
  if (config.books.length > 1) p.set('book', bookId);
  if (line.startFen !== STARTING_FEN) p.set('fen', line.startFen);
  if (line.moves.length > 0) p.set('play', line.moves.join(','));
  if (line.at !== line.moves.length) p.set('at', String(line.at));
  if (policy !== 'terra') p.set('policy', policy);
  if (orientation === COLOR.black) p.set('orientation', 'black');
  // Commas may stand unescaped in a query (RFC 3986, 3.4: sub-delims): the link reads
  // play=e2e4,c7c5 as written in docs/serve.md, not play=e2e4%2Cc7c5.
  const q = p.toString().replace(/%2C/gi, ',');
  const place = placeOf();
  const url = q === '' ? location.pathname : `?${q}`;
  // A game's moves rewrite its entry: a game cannot take a move back (popstate below).
  const known = (history.state as { place?: unknown } | null)?.place;
  if (push || (historyStarted && game === undefined && known !== place)) history.pushState({ place }, '', url);
  else history.replaceState({ place }, '', url);
}

/** What was wrong with the link the page was opened with: shown once the table has loaded. */
let linkError = '';

/**
 * Reads the link: the book and the line, and with `view` the policy and the board's side too
 * (Back and Forward leave those as the user set them last: they are not places visited).
 */
function loadUrl(view: boolean): void {
  const p = new URLSearchParams(location.search);
  const b = p.get('book');
  if (b !== null && config.books.some((x) => x.id === b)) bookId = b;
  if (view) {
    const pol = p.get('policy');
    if (pol !== null && config.policies.includes(pol)) policy = pol;
    // Lichess's analysis board takes the side as color=black; either name is read.
    const side = p.get('orientation') ?? p.get('color');
    orient(side === 'black' ? COLOR.black : COLOR.white, false);
  }
  const play = p.get('play');
  // at= is a ply: anything but a whole number (a hand-edited link) is left out.
  const at = Number(p.get('at') ?? 'x');
  try {
    line.set(p.get('fen') ?? STARTING_FEN, play === null || play === '' ? [] : play.split(','), Number.isInteger(at) ? at : undefined);
  } catch (e) {
    linkError = `The link's position is not valid (${(e as Error).message}): the start position is shown instead.`;
  }
}

// --- book table ------------------------------------------------------------------------------
async function loadExplorer(): Promise<void> {
  const seq = ++fetchSeq;
  const q = new URLSearchParams({ book: bookId, fen: line.startFen, play: line.moves.slice(0, line.at).join(','), policy });
  const key = q.toString();
  // Until this position's moves are in, the table still shows the last position's: aria-busy
  // tells screen readers (and scripts driving the page) not to read it yet.
  $('explorer').setAttribute('aria-busy', 'true');
  try {
    const r = await fetch(`/api/explorer?${key}`);
    const body = (await r.json()) as Explorer & { error?: string };
    if (seq !== fetchSeq) return;
    if (!r.ok) throw new Error(body.error ?? `HTTP ${r.status}`);
    explorer = body;
    explorerFor = key;
    renderExplorer();
    status(linkError, linkError !== '');
    linkError = '';
    if (game !== undefined) gameTurn();
  } catch (e) {
    if (seq !== fetchSeq) return;
    status(`Book: ${unreachable(e)}`, true);
    // The table showed another position: empty it rather than leave its moves under this one.
    $('rows').innerHTML = '';
    $('sum').innerHTML = '';
    $('opening').innerHTML = '&nbsp;';
    explorerFor = '';
  } finally {
    if (seq === fetchSeq) $('explorer').setAttribute('aria-busy', 'false');
  }
}

/** An error's message; a request that got no answer at all says what that means. */
function unreachable(e: unknown): string {
  // fetch rejects with a TypeError ("Failed to fetch") only when no answer came.
  return e instanceof TypeError ? 'the server does not answer (is tabiya serve still running?)' : (e as Error).message;
}

function pct(n: number, total: number): number {
  return total > 0 ? (100 * n) / total : 0;
}

function bar(w: number, d: number, b: number): string {
  const t = w + d + b;
  if (t === 0) return '<div class="wdb empty"></div>';
  const seg = (cls: string, n: number): string => {
    const p = pct(n, t);
    return `<span class="${cls}" style="width:${p.toFixed(2)}%">${p >= 17 ? `${p.toFixed(0)}%` : ''}</span>`;
  };
  return `<div class="wdb" title="White ${pct(w, t).toFixed(1)}%, draws ${pct(d, t).toFixed(1)}%, Black ${pct(b, t).toFixed(1)}%">${seg('w', w)}${seg('d', d)}${seg('b', b)}</div>`;
}

function learnedText(l: ExplorerMove['learned']): string {
  if (l === null) return '';
  return 'games' in l ? `${l.points}/${l.games}` : `${l.wins}/${l.draws}/${l.losses}`;
}

/** The `book audit` verdict beside a move: its loss in pawns, the refutation in the tooltip. */
function auditBadge(m: ExplorerMove): string {
  const a = m.audit;
  if (a === null) return '';
  const title = `book audit, depth ${a.depth}: loses ${(a.loss / 100).toFixed(2)} against ${a.best ?? '?'}; refutation ${a.refutation.join(' ')}`;
  return ` <span class="audit${m.forbidden ? ' bad' : ''}" title="${esc(title)}">${m.forbidden ? '⚠ ' : ''}${a.loss > 0 ? '−' : ''}${(a.loss / 100).toFixed(2)}</span>`;
}

/**
 * What the repertoire says of a move, shown at a glance as ChessBase's book window and Scid's
 * tree mark it: a chosen move (user value above 0; 100 always) stands out, a move set to never
 * (0) or forbidden is struck and dimmed, and a move the book holds only through its notes says
 * "by hand" where the others give their games. Each state has a mark and words (a title for the mouse, hidden text
 * for a screen reader), not a colour alone.
 */
function choiceOf(m: ExplorerMove): { cls: string; mark: string; why: string } {
  const v = m.userValue;
  if (m.forbidden) return { cls: 'forbidden', mark: '✕', why: 'Forbidden: the book never plays it' + (v !== null && v > 0 ? ` (its user value ${v} does not count)` : '') };
  if (v === 0) return { cls: 'never', mark: '⊘', why: 'Set to never (user value 0): the book does not play it' };
  if (v !== null) return { cls: 'chosen', mark: '★', why: v === 100 ? 'Chosen: user value 100, always played' : `Chosen: user value ${v} of 100 (100 is always)` };
  return { cls: '', mark: '', why: '' };
}

function sanCell(m: ExplorerMove): string {
  const c = choiceOf(m);
  const hand = m.byHand ? 'Added by hand: no game in the book played it' : '';
  const why = [c.why, hand].filter((t) => t !== '').join('. ');
  const mark = `<span class="mark" aria-hidden="true">${c.mark}</span>`;
  const said = why === '' ? '' : `<span class="offscreen">, ${esc(why.replace(/^./, (x) => x.toLowerCase()))}</span>`;
  return `<td class="l san"${why === '' ? '' : ` title="${esc(why)}."`}>${mark}<span class="mv-san">${esc(m.san)}</span>${said}${auditBadge(m)}</td>`;
}

/**
 * A move's games. Each game counts once a position, under its last move there (the Lichess
 * explorer's rule): a move that games played only before coming back to the position and
 * leaving it by another move has no game, and says *repeat* with how often it was played.
 */
function gamesCell(m: ExplorerMove, games: number, total: number): string {
  if (m.byHand) return '<td class="stat"><span class="tag" aria-hidden="true">by hand</span></td>';
  const r = m.repeats ?? 0;
  const times = (n: number): string => (n === 1 ? 'once' : `${n.toLocaleString('en')} times`);
  if (games === 0 && r > 0) {
    const why = `Played ${times(r)}, only by games that came back to this position and left it by another move at their last visit: each game counts once here, under its last move`;
    return `<td class="stat" title="${esc(why)}."><span class="tag" aria-hidden="true">repeat</span><span class="offscreen">${esc(why)}</span></td>`;
  }
  const more = r > 0 ? ` title="Played ${times(r)} more by games that came back to this position later (each game counts once here, under its last move)."` : '';
  // A move one game played, from a position several games reached: its count is a link to that
  // game, to follow (the Lichess explorer links a move's one game the same way).
  const count = m.game !== null && !oneGamePosition() ? `<button type="button" class="game-link" data-id="${esc(m.game.id)}" title="The one game that played ${esc(m.san)}: ${esc(gameFacts(m.game))}. Follow it." aria-label="1: follow the game that played ${esc(m.san)}">1</button>` : games.toLocaleString('en');
  return `<td class="stat"${more}>${count}${total > 0 ? ` <span class="muted">${pct(games, total).toFixed(0)}%</span>` : ''}</td>`;
}

function renderExplorer(): void {
  const ex = explorer!;
  const table = $('explorer');
  table.classList.toggle('is-bin', ex.format === 'bin');
  const editable = ex.editable && mayWrite && game === undefined;
  table.classList.toggle('can-edit', editable);
  $('add-move').hidden = !editable;
  $('undo').hidden = !editable;
  $('redo').hidden = !editable;
  $('import-label').hidden = !editable;
  $('opening').innerHTML = ex.opening === null ? '&nbsp;' : `<b>${esc(ex.opening.eco)}</b> ${esc(ex.opening.name)}`;
  const total = ex.white + ex.draws + ex.black;
  // The rows are drawn anew: the focus, when it was in them, goes to the same move's row (or
  // its ✎) when the table still has it, else to the first row, and not to <body>.
  const active = document.activeElement as HTMLElement | null;
  const focusWas = active !== null && $('rows').contains(active) ? { uci: active.closest('tr')?.dataset.uci, edit: active.classList.contains('edit') } : undefined;
  const rows = ex.moves.map((m, i) => {
    const games = m.white + m.draws + m.black;
    const cls = [choiceOf(m).cls, m.byHand ? 'by-hand' : ''].filter((c) => c !== '').join(' ');
    return `<tr data-uci="${m.uci}" data-i="${i}" class="${cls}" tabindex="0">
      ${sanCell(m)}
      ${gamesCell(m, games, total)}
      <td class="barcol">${bar(m.white, m.draws, m.black)}</td>
      <td class="stat">${m.averageRating ?? ''}</td>
      <td class="stat perf">${m.performance ?? ''}</td>
      <td>${m.weight.toLocaleString('en')}</td>
      <td>${(100 * m.probability).toFixed(1)}%</td>
      <td class="tbk">${learnedText(m.learned)}</td>
      <td class="tbk user">${m.userValue ?? ''}</td>
      <td class="tbk" title="${m.nag === null ? '' : `$${m.nag}`}">${m.nag === null ? '' : esc(nagText(m.nag))}</td>
      <td class="tbk l comment" title="${esc(m.comment ?? '')}">${esc(m.comment ?? '')}</td>
      <td class="edit-col"><button type="button" class="edit small" data-i="${i}" title="Edit this move's notes" aria-label="Edit the notes of ${esc(m.san)}">✎</button></td>
    </tr>`;
  });
  $('rows').innerHTML = rows.length > 0 ? rows.join('') : `<tr class="none"><td class="l" colspan="12">No book move here.</td></tr>`;
  if (focusWas !== undefined) focusRow(focusWas.uci, focusWas.edit);
  $('sum').innerHTML =
    ex.moves.length === 0
      ? ''
      : `<tr><td class="l">Σ</td><td class="stat">${total.toLocaleString('en')}</td><td class="barcol">${bar(ex.white, ex.draws, ex.black)}</td><td class="stat"></td><td class="stat"></td><td>${ex.moves.reduce((n, m) => n + m.weight, 0).toLocaleString('en')}</td><td>${(100 * ex.moves.reduce((n, m) => n + m.probability, 0)).toFixed(0)}%</td><td class="tbk"></td><td class="tbk"></td><td class="tbk"></td><td class="tbk"></td><td class="edit-col"></td></tr>`;
  const here = new URLSearchParams({ book: bookId, fen: line.startFen, play: line.moves.slice(0, line.at).join(',') });
  $<HTMLAnchorElement>('export-bin').href = `/api/export?format=bin&whole=true&book=${encodeURIComponent(bookId)}`;
  $<HTMLAnchorElement>('export-sub-bin').href = `/api/export?format=bin&${here.toString()}`;
  $<HTMLAnchorElement>('export-sub-pgn').href = `/api/export?format=pgn&${here.toString()}`;
  $('export-rep-pgn').dataset.here = here.toString();
  repertoireLink();
  $<HTMLSelectElement>('policy').disabled = ex.format === 'bin';
  $('policy').title = ex.format === 'bin' ? 'A Polyglot .bin is played by its weights' : 'How the engine would choose among these moves';
  $('bookinfo').textContent = `${ex.format === 'bin' ? 'Polyglot .bin' : '.tbk'}${ex.editable && mayWrite ? '' : ex.format === 'tbk' ? ', read-only' : ''}`;
  // A book this server would let the page edit, but the page was not opened with the token.
  $('bookinfo').title = ex.editable && !mayWrite ? 'To edit, open the address tabiya serve printed (with its ?token=)' : '';
  if (ex.editable && !mayWrite) $('bookinfo').textContent += ' here: open the address tabiya serve printed to edit';
  renderOneGame();
  markMoreRows();
}

/** The line that *Follow the game* made (start, moves), to say so while it is still the line. */
let followedLine = '';

/**
 * A position that only one game of the book reached (a `.tbk` keeps it as that game): what the
 * book knows of the game, and *Follow the game*, which puts the rest of its moves into the line
 * (the Lichess explorer links such a game the same way).
 */
function renderOneGame(): void {
  const box = $('one-game');
  const g = game === undefined && oneGamePosition() ? explorer?.moves.find((m) => m.game !== null)?.game : undefined;
  box.hidden = g == null;
  if (g == null) return;
  const following = followedLine === lineKey();
  $('one-game-text').innerHTML = `<b>One game</b> of the book reached this position: ${esc(gameFacts(g))}${following ? '. Its moves follow in the line: step through them with → or ›.' : ''}`;
  const follow = $<HTMLButtonElement>('follow-game');
  follow.dataset.id = g.id;
  follow.hidden = following;
}

/**
 * Whether one game alone reached this position (its moves then name that game); a move that one
 * game played from a position several games reached names its game too, in its row.
 */
function oneGamePosition(): boolean {
  const ex = explorer;
  return ex !== undefined && ex.white + ex.draws + ex.black <= 1 && ex.moves.some((m) => m.game !== null);
}

/** What the book tells of a game, in a line: result, ratings, month, speed. */
function gameFacts(g: NonNullable<ExplorerMove['game']>): string {
  const rating = (r: number | null): string => (r === null ? 'unrated' : String(r));
  return [resultText(g.result), `White ${rating(g.white.rating)}`, `Black ${rating(g.black.rating)}`, g.month ?? '', g.speed ?? ''].filter((f) => f !== '').join(' · ');
}

/** A PGN result as a reader writes it: ½ for a half point. */
function resultText(r: string): string {
  return r === '1/2-1/2' ? '½–½' : r === '1-0' ? '1–0' : r === '0-1' ? '0–1' : 'unfinished';
}

/** Puts the moves of game `id` (the one game that reached this position, or that played a move from it) after it in the line. */
async function followGame(id = $('follow-game').dataset.id): Promise<void> {
  if (id === undefined) return;
  const q = new URLSearchParams({ book: bookId, id, fen: line.startFen, play: line.moves.slice(0, line.at).join(',') });
  try {
    const r = await fetch(`/api/game?${q.toString()}`);
    const body = (await r.json()) as { moves?: string[]; ply?: number | null; error?: string };
    if (!r.ok) throw new Error(body.error ?? `HTTP ${r.status}`);
    if (body.ply == null || body.moves === undefined) throw new Error('the game does not reach this position');
    // Stale: the user moved on while the game was fetched.
    if (q.get('play') !== line.moves.slice(0, line.at).join(',')) return;
    line.set(line.startFen, [...line.moves.slice(0, line.at), ...body.moves.slice(body.ply)], line.at);
    followedLine = lineKey();
    changed(false);
    $('fwd').focus();
  } catch (e) {
    status(`Game: ${unreachable(e)}`, true);
  }
}

/**
 * The table keeps its height (no layout jump): when rows lie below what it shows, the Σ row
 * fades what it cuts, so the cut looks like the edge of a list that scrolls and not like a
 * stray line.
 */
function markMoreRows(): void {
  const wrap = document.querySelector('.table-wrap')!;
  wrap.classList.toggle('more', wrap.scrollTop + wrap.clientHeight < wrap.scrollHeight - 1);
}

/** Focuses the row of a move (its ✎ when `edit`), the first row when the table lacks it, or the table. */
function focusRow(uci: string | undefined, edit: boolean): void {
  const tr = document.querySelector<HTMLElement>(`#rows tr[data-uci="${uci ?? ''}"]`);
  const target = (edit && canEdit() ? tr?.querySelector<HTMLElement>('button.edit') : tr) ?? document.querySelector<HTMLElement>('#rows tr[data-uci]');
  if (target !== null) target.focus();
  else $('first').focus();
}

function canEdit(): boolean {
  return explorer?.editable === true && mayWrite && game === undefined;
}

/**
 * The book move under the pointer, or on the row that has the focus, drawn on the board as an
 * arrow (green; the engine's best move is blue), as the Lichess explorer shows the move a row
 * would play before it is clicked.
 */
let previewed = '';
function previewMove(uci: string | undefined): void {
  if ((uci ?? '') === previewed) return;
  previewed = uci ?? '';
  board.removeArrows(ARROW_TYPE.default);
  if (uci !== undefined && uci.length >= 4) board.addArrow(ARROW_TYPE.default, uci.slice(0, 2), uci.slice(2, 4));
}

function playRow(i: number): void {
  const m = explorer?.moves[i];
  if (m === undefined) return;
  if (game !== undefined && game.over === '' && game.human !== (line.position().turn === 0 ? 'w' : 'b')) return;
  if (line.play(m.uci)) changed();
}

// --- editing ---------------------------------------------------------------------------------
/**
 * What the editor was opened on: the book and the position (the table may show another one by
 * the time Save is pressed, and another tab may have changed the move since), and the values it
 * showed, so that Save sends only the fields the user changed and leaves the others as the book
 * has them (a NAG the menu does not list, a comment set from another tab).
 */
let editing: { book: string; fen: string; play: string; row: ExplorerMove | undefined; shown: { userValue: string; nag: string; comment: string; forbidden: boolean } } | undefined;
const edits = new EditHistory();

function closeEditor(): void {
  const form = $('editor');
  // Hiding the form drops the focus inside it to <body>: it goes back to where the editor was
  // opened from, the move's ✎ (or + Add a move).
  const hadFocus = !form.hidden && form.contains(document.activeElement);
  const row = editing?.row;
  form.hidden = true;
  editing = undefined;
  if (!hadFocus) return;
  if (row !== undefined) focusRow(row.uci, true);
  else if (!$('add-move').hidden) $('add-move').focus();
  else focusRow(undefined, false);
}

function openEditor(i: number | undefined): void {
  const m = i === undefined ? undefined : explorer?.moves[i];
  // A refusal of the edit before ("Not saved: …") is not this one's: it would read as the
  // answer to a Save not yet pressed.
  if ($('status').classList.contains('error')) status('');
  $('editor').hidden = false;
  $('edit-title').textContent = m === undefined ? 'Add a move to the book' : `Notes of ${m.san}`;
  const move = $<HTMLInputElement>('edit-move');
  move.value = m?.san ?? '';
  move.readOnly = m !== undefined;
  const nagSel = $<HTMLSelectElement>('edit-nag');
  // A NAG the menu does not list ($10, $14 ...) is shown as it is, and kept unless changed.
  nagSel.querySelectorAll('option.extra').forEach((o) => o.remove());
  if (m !== undefined && m.nag !== null && NAGS[m.nag] === undefined) nagSel.insertAdjacentHTML('beforeend', `<option class="extra" value="${m.nag}">$${m.nag}${NAG_SYMBOLS[m.nag] === undefined ? '' : ` ${NAG_SYMBOLS[m.nag]}`}</option>`);
  $<HTMLInputElement>('edit-user').value = m?.userValue === null || m === undefined ? '' : String(m.userValue);
  nagSel.value = m?.nag === null || m === undefined ? '' : String(m.nag);
  $<HTMLInputElement>('edit-comment').value = m?.comment ?? '';
  $<HTMLInputElement>('edit-forbidden').checked = m?.forbidden ?? false;
  // Only a move no game played can be removed (the server refuses the others: mark them
  // forbidden instead), so Remove is offered for those alone.
  $('edit-remove').hidden = m === undefined || m.white + m.draws + m.black > 0;
  editing = { book: bookId, fen: line.startFen, play: line.moves.slice(0, line.at).join(','), row: m, shown: editorValues() };
  (m === undefined ? move : $<HTMLInputElement>('edit-user')).focus();
}

function editorValues(): { userValue: string; nag: string; comment: string; forbidden: boolean } {
  return {
    userValue: $<HTMLInputElement>('edit-user').value.trim(),
    nag: $<HTMLSelectElement>('edit-nag').value,
    comment: $<HTMLInputElement>('edit-comment').value.trim(),
    forbidden: $<HTMLInputElement>('edit-forbidden').checked,
  };
}

/** Sends one request to the edit API; its answer, or undefined after saying on the status line why not. */
async function send(req: EditRequest, failed: string): Promise<{ added?: boolean } | undefined> {
  try {
    const r = await fetch(req.path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Tabiya-Token': token }, body: JSON.stringify(req.body) });
    const out = (await r.json()) as { error?: string; added?: boolean };
    if (!r.ok) throw new Error(out.error ?? `HTTP ${r.status}`);
    return out;
  } catch (e) {
    status(`${failed}: ${unreachable(e)}`, true);
    return undefined;
  }
}

/** The move the editor is open on, as the edit API names it, and where it stands in words. */
function editTarget(): { target: Record<string, unknown>; label: string } | undefined {
  if (editing === undefined) return undefined;
  const move = editing.row?.uci ?? $<HTMLInputElement>('edit-move').value.trim();
  const san = editing.row?.san ?? $<HTMLInputElement>('edit-move').value.trim();
  const plies = editing.play === '' ? 0 : editing.play.split(',').length;
  const place = placeLabel(san, line.sans.slice(0, plies), editing.fen);
  return {
    target: { book: editing.book, fen: editing.fen, play: editing.play, move },
    label: `the notes of ${place}${config.books.length > 1 ? ` in ${editing.book}` : ''}`,
  };
}

/** The editor's text values as the API writes them: an empty field is null. */
function typedNotes(v: { userValue: string; nag: string; comment: string; forbidden: boolean }): MoveNotes {
  return {
    userValue: v.userValue === '' ? null : Number(v.userValue),
    nag: v.nag === '' ? null : Number(v.nag),
    comment: v.comment === '' ? null : v.comment,
    forbidden: v.forbidden,
  };
}

async function saveEdit(ev: Event): Promise<void> {
  ev.preventDefault();
  const t = editTarget();
  if (editing === undefined || t === undefined) return;
  const now = typedNotes(editorValues());
  const was = typedNotes(editing.shown);
  // Only what the user changed: a field sent as null would clear what the book holds.
  const patch: Partial<MoveNotes> = {};
  for (const k of ['userValue', 'nag', 'comment', 'forbidden'] as const) if (now[k] !== was[k]) (patch as Record<string, unknown>)[k] = now[k];
  if (Object.keys(patch).length === 0) {
    // A book keeps a move added by hand through its notes: one with none would not be kept.
    if (editing.row === undefined) {
      status(`${$<HTMLInputElement>('edit-move').value.trim()} is added with its notes: give it a user value, a NAG, a comment or the forbidden mark.`, true);
      $('edit-user').focus();
      return;
    }
    // Save with nothing changed is a close, as in a dialog, not an error.
    closeEditor();
    status('Nothing changed.');
    return;
  }
  const out = await send({ path: '/api/move', body: { ...t.target, ...patch } }, 'Not saved');
  if (out !== undefined) {
    edits.record(noteEdit(t.target, patch, was, out.added === true, t.label));
    closeEditor();
    // The table first: reading it clears the status line.
    await loadExplorer();
    status('Saved.');
    showHistory();
  }
}

async function removeMove(): Promise<void> {
  const t = editTarget();
  const row = editing?.row;
  if (t === undefined || row === undefined) return;
  if ((await send({ path: '/api/move/remove', body: t.target }, 'Not removed')) !== undefined) {
    edits.record(removal(t.target, { userValue: row.userValue, nag: row.nag, comment: row.comment, forbidden: row.forbidden }, t.label.replace(/^the notes of /, '')));
    closeEditor();
    await loadExplorer();
    status('Removed.');
    showHistory();
  }
}

/** Takes back the last edit (Ctrl+Z), or makes again the last one taken back (Ctrl+Shift+Z, Ctrl+Y). */
async function undoRedo(redo: boolean): Promise<void> {
  const e = redo ? edits.nextRedo() : edits.nextUndo();
  if (e === undefined) return status(redo ? 'Nothing to redo.' : 'Nothing to undo.');
  // An editor left open would save over what the undo restores.
  closeEditor();
  if ((await send(redo ? e.redo : e.undo, redo ? 'Not redone' : 'Not undone')) === undefined) return;
  if (redo) edits.redid();
  else edits.undid();
  await loadExplorer();
  status(`${redo ? 'Redone' : 'Undone'}: ${e.label}.`);
  showHistory();
}

/** The Undo and Redo buttons: enabled when there is something to take back, titled with what. */
function showHistory(): void {
  const u = edits.nextUndo();
  const r = edits.nextRedo();
  const undo = $<HTMLButtonElement>('undo');
  const redo = $<HTMLButtonElement>('redo');
  const had = document.activeElement;
  undo.disabled = u === undefined;
  redo.disabled = r === undefined;
  // A disabled button loses the focus to <body>: the other one (or the table) takes it.
  if ((had === undo && undo.disabled) || (had === redo && redo.disabled)) {
    const other = had === undo ? redo : undo;
    if (!other.disabled) other.focus();
    else focusRow(undefined, false);
  }
  undo.title = u === undefined ? 'Undo (Ctrl+Z)' : `Undo ${u.label} (Ctrl+Z)`;
  redo.title = r === undefined ? 'Redo (Ctrl+Shift+Z)' : `Redo ${r.label} (Ctrl+Shift+Z)`;
}

async function importPgn(file: File): Promise<void> {
  const bar = $<HTMLProgressElement>('import-progress');
  try {
    // The server takes a name of at most 200 characters without control characters (it goes into
    // the book's history): cut by code points, since half an emoji cannot be URI-encoded.
    const name = Array.from(file.name.replace(/\p{Cc}/gu, '?')).slice(0, 200).join('');
    const r = await fetch(`/api/import?book=${encodeURIComponent(bookId)}&name=${encodeURIComponent(name)}`, { method: 'POST', headers: { 'Content-Type': 'application/x-chess-pgn', 'X-Tabiya-Token': token }, body: file });
    const out = (await r.json()) as { error?: string };
    if (!r.ok) throw new Error(out.error ?? `HTTP ${r.status}`);
    bar.hidden = false;
    for (;;) {
      await new Promise((res) => setTimeout(res, 300));
      // A server that stops cancels its import (the book left as it was), then answers 503 while
      // it closes and nothing after: said as such, not as a network error or a bad answer.
      const poll = await fetch('/api/import').catch(() => undefined);
      if (poll === undefined || !poll.ok) throw new Error(`the server stopped before ${file.name} was imported (${poll === undefined ? 'no answer' : `HTTP ${poll.status}`}): an import cut short leaves the book as it was; start the server again and import the file again`);
      const j = (await poll.json()) as { done: number; total: number; games: number; writing?: { done: number; total: number }; finished: boolean; cancelled?: boolean; error?: string; result?: { gamesUsed: number; gamesSkipped: number; errors: string[] } };
      // Once the file is read, the book is written anew: on a big book that takes a while, so
      // the bar then follows the writing.
      const w = j.writing;
      const writing = w !== undefined || (j.total > 0 && j.done >= j.total);
      // The file read whole and the writing not yet reported: the bar starts the writing at 0
      // rather than stand full while the longer half of the work begins.
      bar.value = w !== undefined && w.total > 0 ? w.done / w.total : writing ? 0 : j.total > 0 ? j.done / j.total : 0;
      const share = w !== undefined && w.total > 0 ? ` ${Math.floor((100 * w.done) / w.total)}%` : '';
      status(`Importing ${file.name}: ${plural(j.games, 'game')}${writing ? ` read; writing the book…${share}` : ''}`);
      if (!j.finished) continue;
      if (j.error !== undefined) throw new Error(j.error);
      await loadExplorer();
      const r = j.result!;
      // The first broken game's place and fault, as the command line says it.
      status(`Imported ${file.name}: ${plural(r.gamesUsed, 'game')} counted${r.gamesSkipped > 0 ? `, ${plural(r.gamesSkipped, 'broken game')} skipped (${file.name} ${r.errors[0] ?? ''}${r.gamesSkipped > 1 ? ', …' : ''})` : ''}.`, r.gamesSkipped > 0);
      break;
    }
  } catch (e) {
    status(`Import: ${(e as Error).message}`, true);
  } finally {
    bar.hidden = true;
    $<HTMLInputElement>('import-file').value = '';
  }
}

function plural(n: number, what: string): string {
  return `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;
}

function status(text: string, error = false): void {
  const el = $('status');
  el.textContent = text === '' ? '\u00a0' : text;
  el.classList.toggle('error', error);
}

// --- engine ----------------------------------------------------------------------------------
/** Threads when the server leaves it to the page: half the logical cores (the other half for the page and everything else), at most 8. */
function autoThreads(): number {
  return Math.max(1, Math.min(8, Math.floor((navigator.hardwareConcurrency || 2) / 2)));
}

function showEngine(): void {
  const el = $('enginestat');
  el.dataset.threads = String(engine.threads);
  el.dataset.isolated = String(engine.isolated);
  const threads = `${engine.threads} thread${engine.threads === 1 ? '' : 's'}`;
  el.textContent = `tabiya (WebAssembly, in this page), ${threads}`;
  el.title = engine.limitedBy === '' ? `${threads} searching over one shared hash table` : `one thread: ${engine.limitedBy}`;
  if (engine.limitedBy !== '') el.textContent += ` (one thread: ${engine.limitedBy})`;
}

/** An engine that cannot load or fails: said in the engine panel, and the analysis ends. */
function engineFailed(m: string): void {
  if (analysing) {
    toggleAnalysis();
    renderPvs(line.position());
  }
  $('engineinfo').textContent = m;
}
engine.onError = engineFailed;

/**
 * Which analysis the lines belong to. A search stopped for a new position can still report,
 * and a drawing scheduled for the old one can still be pending: both are dropped, or they would
 * overwrite the new position's lines (or its result, when the game is over there).
 */
let analysisGen = 0;

function analyse(): void {
  const pos = line.position();
  const gen = ++analysisGen;
  pvLines = [];
  // The depth and speed shown are the last position's until this search reports.
  $('engineinfo').textContent = '\u00a0';
  if (countLegal(pos) === 0) {
    // The search of the position before goes on until stopped: its lines (a mate in 6 in a
    // stalemate) would be shown for this one.
    engine.stop();
    $('engineinfo').textContent = pos.inCheck() ? 'Checkmate' : 'Stalemate';
    renderPvs(pos);
    return;
  }
  const start = line.position();
  engine
    .search({
      fen: line.startFen,
      moves: line.moves.slice(0, line.at),
      multiPV: Number($<HTMLSelectElement>('multipv').value),
      onInfo: (info) => {
        if (info.bound !== undefined || gen !== analysisGen) return;
        pvLines[info.multipv - 1] = info;
        if (info.multipv === 1) {
          $('engineinfo').textContent = `depth ${info.depth} · ${fmtNodes(info.nps)} nodes/s`;
          $('engineinfo').dataset.nps = String(info.nps);
        }
        scheduleRender(start, gen);
      },
    })
    .catch((e: unknown) => engineFailed((e as Error).message));
}

/** The lines are drawn once a frame, for the last report's analysis, and only while it is current. */
let pending: { pos: Position; gen: number } | undefined;
function scheduleRender(pos: Position, gen: number): void {
  const first = pending === undefined;
  pending = { pos, gen };
  if (!first) return;
  requestAnimationFrame(() => {
    const p = pending!;
    pending = undefined;
    if (p.gen === analysisGen) renderPvs(p.pos);
  });
}

function fmtNodes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : String(n);
}

/** A score from White's side, as text (+1.20, #3, -#2). */
function scoreText(info: EngineInfo, whiteToMove: boolean): string {
  const sign = whiteToMove ? 1 : -1;
  if (info.mate !== undefined) return `${info.mate * sign > 0 ? '' : '-'}#${Math.abs(info.mate)}`;
  const cp = (info.score * sign) / 100;
  return `${cp >= 0 ? '+' : ''}${cp.toFixed(2)}`;
}

function renderPvs(pos: Position): void {
  const n = Number($<HTMLSelectElement>('multipv').value);
  const white = pos.turn === 0;
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    const info = pvLines[i];
    if (info === undefined) {
      // Before any analysis, the first line says what the space is for (its height is kept: no layout jump).
      const hint = !analysing ? 'Analyse: the engine\u2019s best lines show here.' : countLegal(pos) > 0 ? 'Searching\u2026' : '';
      items.push(i > 0 || hint === '' ? '<li>&nbsp;</li>' : `<li class="hint">${hint}</li>`);
      continue;
    }
    items.push(`<li><b class="score">${scoreText(info, white)}</b> <span class="pv">${esc(pvSan(line.position(), info.pv))}</span></li>`);
  }
  $('pvs').innerHTML = items.join('');
  const best = pvLines[0];
  const fill = $('evalfill');
  if (best === undefined && analysing && countLegal(pos) === 0) {
    // The game is over: the bar gives its result, not the last position's score.
    const winner = pos.inCheck() ? (pos.turn === 0 ? 'Black' : 'White') : '';
    fill.style.height = winner === 'White' ? '100%' : winner === 'Black' ? '0%' : '50%';
    $('evaltext').textContent = winner === 'White' ? '1-0' : winner === 'Black' ? '0-1' : '½-½';
    $('evaltext').classList.toggle('black', winner === 'Black');
    $('evalbar').setAttribute('aria-label', winner === '' ? 'Evaluation: stalemate, a draw' : `Evaluation: checkmate, ${winner} wins`);
    return;
  }
  if (best === undefined) {
    if (!analysing) fill.style.height = '50%';
    $('evaltext').textContent = '';
    $('evalbar').setAttribute('aria-label', analysing ? 'Evaluation: searching' : 'Evaluation: no analysis');
    return;
  }
  const cpWhite = best.mate !== undefined ? (best.mate > 0 === white ? 10000 : -10000) : white ? best.score : -best.score;
  const share = 50 + 50 * (2 / (1 + Math.exp(-cpWhite / 400)) - 1);
  fill.style.height = `${share.toFixed(1)}%`;
  $('evaltext').textContent = scoreText(best, white);
  $('evaltext').classList.toggle('black', cpWhite < 0);
  $('evalbar').setAttribute('aria-label', `Evaluation: ${scoreText(best, white)} (White's view), depth ${best.depth}`);
  board.removeArrows(ARROW_TYPE.info);
  if (best.pv.length > 0) board.addArrow(ARROW_TYPE.info, best.pv[0]!.slice(0, 2), best.pv[0]!.slice(2, 4));
}

function pvSan(pos: Position, pv: readonly string[]): string {
  const words: string[] = [];
  let ply = pos.fullmoves * 2 - 2 + pos.turn;
  for (let i = 0; i < pv.length && i < 12; i++) {
    const m = parseUci(pos, pv[i]!);
    if (!m.ok) break;
    if (ply % 2 === 0) words.push(`${ply / 2 + 1}.`);
    else if (i === 0) words.push(`${(ply - 1) / 2 + 1}…`);
    words.push(makeSan(pos, m.value));
    pos.play(m.value);
    ply++;
  }
  return words.join(' ');
}

function toggleAnalysis(): void {
  analysing = !analysing;
  $('analyse').textContent = analysing ? 'Stop' : 'Analyse';
  $('analyse').classList.toggle('on', analysing);
  if (analysing) {
    analyse();
    renderPvs(line.position());
  } else {
    engine.stop();
    analysisGen++;
    $('engineinfo').textContent = '\u00a0';
    // A stop before the first line: the hint again, not "Searching…".
    renderPvs(line.position());
  }
}

// --- play against the engine -----------------------------------------------------------------
function startGame(): void {
  if (game !== undefined) return endGame('abandoned');
  if (analysing) toggleAnalysis();
  const [base, inc] = $<HTMLSelectElement>('play-tc').value.split('+').map(Number) as [number, number];
  line.moves.length = line.at;
  line.sans.length = line.at;
  game = { human: $<HTMLSelectElement>('play-side').value as 'w' | 'b', clock: [base * 1000, base * 1000], inc: inc * 1000, tick: performance.now(), over: '', timer: 0 };
  game.timer = window.setInterval(tickClock, 100);
  orient(game.human === 'w' ? COLOR.white : COLOR.black);
  $('play').textContent = 'Resign';
  changed(false);
  // The game has an entry of its own in the history, which its moves rewrite: Back during the
  // game stays on the page (popstate), even when the page was opened on this position.
  saveUrl(true);
}

function tickClock(): void {
  if (game === undefined || game.over !== '') return;
  const t = performance.now();
  const side = line.position().turn;
  game.clock[side] -= t - game.tick;
  game.tick = t;
  if (game.clock[side] <= 0) {
    game.clock[side] = 0;
    endGame(side === 0 ? '0-1' : '1-0', `${side === 0 ? 'White' : 'Black'} lost on time`);
  }
  renderClocks();
}

function renderClocks(): void {
  if (game === undefined) return;
  const f = (ms: number): string => `${Math.floor(ms / 60000)}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}`;
  $('clocks').textContent = `White ${f(game.clock[0])} · Black ${f(game.clock[1])}${game.over === '' ? '' : ` · ${game.over}`}`;
}

/** After each move of the game: the increment, the end of the game, or the engine's move. */
let lastPly = -1;
function gameTurn(): void {
  if (game === undefined || game.over !== '') return;
  const pos = line.position();
  if (line.at !== lastPly && lastPly >= 0) game.clock[pos.turn ^ 1] += game.inc;
  lastPly = line.at;
  if (countLegal(pos) === 0) return endGame(pos.inCheck() ? (pos.turn === 0 ? '0-1' : '1-0') : '1/2-1/2', pos.inCheck() ? 'checkmate' : 'stalemate');
  const side = pos.turn === 0 ? 'w' : 'b';
  if (side === game.human || engine.searching) return;
  // The book first, chosen by the policy's probabilities; then the engine on the clock.
  const key = new URLSearchParams({ book: bookId, fen: line.startFen, play: line.moves.slice(0, line.at).join(','), policy }).toString();
  if (explorerFor !== key) return; // the table of this position is on its way
  const inBook = explorer!.moves.filter((m) => m.probability > 0);
  if (inBook.length > 0) {
    let r = Math.random() * inBook.reduce((n, m) => n + m.probability, 0);
    const pick = inBook.find((m) => (r -= m.probability) < 0) ?? inBook[0]!;
    // The pick belongs to this game and this position: gameTurn can run again for it (the
    // table reloaded) and the player may have moved meanwhile, so a late pick must not play.
    const g = game;
    const here = line.moves.slice(0, line.at).join(',');
    window.setTimeout(() => {
      if (game !== g || game.over !== '' || line.moves.slice(0, line.at).join(',') !== here || !line.play(pick.uci)) return;
      changed();
      announceMove('from the book');
    }, 300);
    return;
  }
  const left = game.clock[pos.turn];
  const movetime = Math.max(50, Math.min(left / 2, left / 30 + game.inc * 0.8));
  const at = line.at;
  engine
    .search({ fen: line.startFen, moves: line.moves.slice(0, line.at), movetime })
    .then(({ bestMove, stopped }) => {
      if (stopped || game === undefined || game.over !== '' || line.at !== at || bestMove === null) return;
      if (!line.play(bestMove)) return;
      changed();
      announceMove('');
    })
    .catch((e: unknown) => engineFailed((e as Error).message));
}

/**
 * The engine's move said to a screen reader (a live region out of sight): the board shows it,
 * but nothing else in the page's text changes when it is made.
 */
function announceMove(how: string): void {
  const ply = line.at - 1;
  const pos = line.position(0);
  const moveNo = Math.floor((ply + (pos.turn === 1 ? 1 : 0)) / 2) + pos.fullmoves;
  $('announce').textContent = `tabiya plays ${moveNo}${(ply + pos.turn) % 2 === 0 ? '.' : '...'} ${line.sans[ply]}${how === '' ? '' : `, ${how}`}`;
}

function endGame(result: string, why = ''): void {
  if (game === undefined) return;
  const g = game;
  if (result === 'abandoned') result = g.human === 'w' ? '0-1' : '1-0';
  g.over = `${result}${why === '' ? ' (resigned)' : ` (${why})`}`;
  window.clearInterval(g.timer);
  engine.stop();
  renderClocks();
  const names = { White: g.human === 'w' ? 'You' : 'tabiya', Black: g.human === 'b' ? 'You' : 'tabiya' };
  $<HTMLTextAreaElement>('pgn').value = line.pgn({ ...names, Event: 'tabiya explorer game', TimeControl: $<HTMLSelectElement>('play-tc').value }, result);
  pgnBoxFor = lineKey();
  game = undefined;
  lastPly = -1;
  $('play').textContent = 'Play from here';
  status(`Game over: ${g.over}. Its PGN is in the PGN box.`);
  if (explorer !== undefined) renderExplorer();
}

// --- FEN, PGN, link ---------------------------------------------------------------------------
async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    status(`${what} copied.`);
  } catch {
    status(`${what}: select the text and copy it (the browser refused the clipboard).`);
  }
}

function loadFen(): void {
  try {
    line.set($<HTMLInputElement>('fen').value.trim(), []);
    changed(false);
  } catch (e) {
    status((e as Error).message, true);
  }
}

/** The line (start and moves) the PGN box was filled with by the page; undefined once typed into. */
let pgnBoxFor: string | undefined;
const lineKey = (): string => `${line.startFen}|${line.moves.join(',')}`;

function loadPgn(): void {
  try {
    line.loadPgn($<HTMLTextAreaElement>('pgn').value);
    pgnBoxFor = lineKey();
    changed(false);
  } catch (e) {
    status(`PGN: ${(e as Error).message}`, true);
  }
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// --- wiring ----------------------------------------------------------------------------------
function init(): void {
  const bookSel = $<HTMLSelectElement>('book');
  bookSel.innerHTML = config.books.map((b) => `<option value="${esc(b.id)}">${esc(b.id)}</option>`).join('');
  const polSel = $<HTMLSelectElement>('policy');
  polSel.innerHTML = config.policies.map((p) => `<option>${esc(p)}</option>`).join('');
  loadUrl(true);
  bookSel.value = bookId;
  polSel.value = policy;
  bookSel.onchange = () => {
    bookId = bookSel.value;
    closeEditor();
    saveUrl();
    void loadExplorer();
  };
  polSel.onchange = () => {
    policy = polSel.value;
    saveUrl();
    void loadExplorer();
  };
  $('theme').onclick = toggleTheme;
  $('first').onclick = () => goTo(0);
  $('back').onclick = () => goTo(line.at - 1);
  $('fwd').onclick = () => goTo(line.at + 1);
  $('last').onclick = () => goTo(line.moves.length);
  $('flip').onclick = () => orient(orientation === COLOR.white ? COLOR.black : COLOR.white);
  $('moves').onclick = (e) => {
    const ply = (e.target as HTMLElement).dataset.ply;
    if (ply !== undefined) goTo(Number(ply));
  };
  $('rows').onclick = (e) => {
    const t = e.target as HTMLElement;
    if (t.classList.contains('edit')) return openEditor(Number(t.dataset.i));
    if (t.classList.contains('game-link')) return void followGame(t.dataset.id);
    const tr = t.closest('tr');
    if (tr?.dataset.i !== undefined) playRow(Number(tr.dataset.i));
  };
  // The row under the pointer, else the one the keyboard is on (a focus the mouse gave, by a
  // click, shows nothing once the pointer has left).
  const keyboardRow = (): string | undefined => {
    const a = document.activeElement;
    return a !== null && $('rows').contains(a) && a.matches(':focus-visible') ? a.closest('tr')?.dataset.uci : undefined;
  };
  $('rows').onmouseover = (e) => previewMove((e.target as HTMLElement).closest('tr')?.dataset.uci);
  $('rows').onmouseleave = () => previewMove(keyboardRow());
  $('rows').addEventListener('focusin', () => previewMove(keyboardRow()));
  $('rows').addEventListener('focusout', (e) => {
    if (!$('rows').contains(e.relatedTarget as Node | null)) previewMove(undefined);
  });
  $('rows').onkeydown = (e) => {
    const tr = (e.target as HTMLElement).closest('tr');
    // Enter or Space on the row itself, as on a button (Space would otherwise scroll the page);
    // on its ✎ button they open the editor (the button's click) and play nothing.
    if ((e.key === 'Enter' || e.key === ' ') && tr !== null && e.target === tr && tr.dataset.i !== undefined) {
      e.preventDefault();
      playRow(Number(tr.dataset.i));
    }
  };
  $('editor').onsubmit = (e) => void saveEdit(e);
  $('edit-remove').onclick = () => void removeMove();
  $('edit-cancel').onclick = closeEditor;
  $('editor').addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    closeEditor();
  });
  $('add-move').onclick = () => openEditor(undefined);
  $('undo').onclick = () => void undoRedo(false);
  $('redo').onclick = () => void undoRedo(true);
  $<HTMLInputElement>('import-file').onchange = () => {
    const f = $<HTMLInputElement>('import-file').files?.[0];
    if (f !== undefined) void importPgn(f);
  };
  $('analyse').onclick = toggleAnalysis;
  document.querySelector('.table-wrap')!.addEventListener('scroll', markMoreRows, { passive: true });
  $('multipv').onchange = () => analysing && analyse();
  $('play').onclick = startGame;
  $('fen-copy').onclick = () => void copy(line.fen(), 'FEN');
  $('fen-load').onclick = loadFen;
  $('pgn-copy').onclick = () => {
    const box = $<HTMLTextAreaElement>('pgn');
    // The box's text when it is the line on the board (a finished game keeps its tags and
    // result); otherwise the line itself. Text typed into the box is not overwritten.
    const current = box.value.trim() !== '' && pgnBoxFor === lineKey();
    const text = current ? box.value : line.pgn();
    if (box.value.trim() === '' || pgnBoxFor !== undefined) {
      box.value = text;
      pgnBoxFor = lineKey();
    }
    void copy(text, 'PGN');
  };
  $('pgn').addEventListener('input', () => (pgnBoxFor = undefined));
  $('pgn-load').onclick = loadPgn;
  $('follow-game').onclick = () => void followGame();
  $('link-copy').onclick = () => void copy(location.href, 'Link');
  document.addEventListener('keydown', (e) => {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    // Outside the text fields (whose own undo stays theirs), Ctrl+Z takes back a book edit.
    const key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (key === 'z' || key === 'y') && game === undefined) {
      e.preventDefault();
      void undoRedo(key === 'y' || e.shiftKey);
      return;
    }
    // Ctrl+F, Alt+← and the like stay the browser's.
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    // On the board the arrows move between its squares (and the promotion dialog's pieces).
    if (e.defaultPrevented || (e.key.startsWith('Arrow') && (e.target as Element).closest('#board') !== null)) return;
    if (e.key === 'ArrowLeft') goTo(line.at - 1);
    else if (e.key === 'ArrowRight') goTo(line.at + 1);
    else if (e.key === 'Home') goTo(0);
    else if (e.key === 'End') goTo(line.moves.length);
    else if (e.key === 'f') $('flip').click();
    else return;
    e.preventDefault();
  });
  // Back and Forward: the position of the entry the browser went to.
  window.addEventListener('popstate', () => {
    if (game !== undefined) {
      // A game cannot go back to a position left: its entry is put back, and the way out said.
      saveUrl(true);
      status('A game is on: Resign ends it, and then Back goes through the positions again.', true);
      return;
    }
    const was = { fen: line.startFen, moves: [...line.moves] };
    loadUrl(false);
    // Back to a position on the line shown keeps the line, as ← does; the moves after it stay.
    const here = line.moves.slice(0, line.at);
    if (line.startFen === was.fen && was.moves.length > here.length && here.every((m, i) => was.moves[i] === m)) line.set(was.fen, was.moves, here.length);
    bookSel.value = bookId;
    // The entry is the browser's already: it is rewritten (the board's side and the policy as
    // they are now), not added again.
    historyStarted = false;
    changed(false);
    historyStarted = true;
  });
  showEngine();
  showHistory();
  changed(false);
  historyStarted = true;
}

init();
