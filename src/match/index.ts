/**
 * The match runner as a library: engine definitions, schedules, openings, the game loop and the
 * scheduler. The engine transport is injected (`spawnEngine` from `node/engineProcess.ts` in Node).
 *
 *     const out = await runMatch({ engines, schedule: buildSchedule({...}), rules: {}, concurrency: 2,
 *       waitMs: 0, recover: true, timeouts: DEFAULT_TIMEOUTS, repeat: 2 }, spawnEngine);
 *     reportLines(out.board).join('\n');
 */
export * from './adjudicate.js';
export * from './clock.js';
export * from './engineSpec.js';
export * from './game.js';
export * from './openings.js';
export * from './pgnOut.js';
export * from './player.js';
export * from './report.js';
export * from './runner.js';
export * from './schedule.js';
export * from './scoreboard.js';
export * from './tc.js';
export * from './timeUse.js';
export { UciClient } from '../protocol/uci/client.js';
export { XboardClient } from '../protocol/xboard/client.js';
export type { EngineClient, EngineReply, EngineScore, GoLimits, PositionSpec, SearchInfo } from '../protocol/engineClient.js';
