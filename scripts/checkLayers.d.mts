/** Types of checkLayers.mjs, for the tests that import it. */

/** Who may import whom (besides itself): folder → folders it may import, or '*' for any. */
export type LayerTable = Readonly<Record<string, readonly string[] | '*'>>;

export const LAYERS: LayerTable;
export const MAX_FILE_LINES: number;
export const MAX_FUNCTION_LINES: number;

/** Folders that can reach themselves through the table. */
export function cyclesIn(layers: LayerTable): string[];

export interface CheckOptions {
  /** Also report every edge of the table that no import uses (the command line does). */
  unused?: boolean;
}

/** Every problem under `root/src`, as `path:line: message` lines. */
export function checkLayers(root: string, layers?: LayerTable, options?: CheckOptions): string[];

/** The table's edges that no import uses (`used` holds `from to` pairs); with `present`, only between folders the tree has. */
export function unusedEdges(layers: LayerTable, used: ReadonlySet<string>, present?: ReadonlySet<string>): string[];
