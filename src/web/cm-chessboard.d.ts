// Types for the parts of cm-chessboard (MIT, plain JavaScript) the page uses.
declare module 'cm-chessboard/src/Chessboard.js' {
  export const COLOR: { white: 'w'; black: 'b' };
  export const INPUT_EVENT_TYPE: { moveInputStarted: string; movingOverSquare: string; validateMoveInput: string; moveInputCanceled: string; moveInputFinished: string };
  export const BORDER_TYPE: { none: string; thin: string; frame: string };
  export const FEN: { start: string; empty: string };
  export interface MoveInputEvent {
    type: string;
    squareFrom: string;
    squareTo?: string;
    piece?: string;
  }
  export class Chessboard {
    constructor(context: HTMLElement, props?: Record<string, unknown>);
    setPosition(fen: string, animated?: boolean): Promise<void>;
    setOrientation(color: 'w' | 'b', animated?: boolean): Promise<void>;
    getOrientation(): 'w' | 'b';
    enableMoveInput(handler: (e: MoveInputEvent) => boolean | void, color?: 'w' | 'b'): void;
    disableMoveInput(): void;
    addMarker(type: unknown, square: string): void;
    removeMarkers(type?: unknown, square?: string): void;
    addArrow(type: unknown, from: string, to: string): void;
    removeArrows(type?: unknown): void;
    showPromotionDialog(square: string, color: 'w' | 'b', callback: (r: { type: string; square?: string; piece?: string }) => void): void;
  }
}
declare module 'cm-chessboard/src/extensions/markers/Markers.js' {
  export const MARKER_TYPE: Record<string, unknown>;
  export class Markers {}
}
declare module 'cm-chessboard/src/extensions/arrows/Arrows.js' {
  export const ARROW_TYPE: Record<string, unknown>;
  export class Arrows {}
}
declare module 'cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js' {
  export const PROMOTION_DIALOG_RESULT_TYPE: { pieceSelected: string; canceled: string };
  export class PromotionDialog {}
}
declare module 'cm-chessboard/src/extensions/accessibility/Accessibility.js' {
  export class Accessibility {}
}
