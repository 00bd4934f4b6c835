import { encodeResidues, SUBSTITUTION_SCORES as SUB, SUBSTITUTION_WIDTH as W } from './blosum62';
import { AlignmentTally, EncodedPair } from './alignment-tally';
import { AlignmentOptions, AlignmentResult, resolveGapPenalties } from './alignment-types';

/*
 * Local alignment as EMBOSS water 6.6.0 computes it (embAlignPathCalcSW + embAlignWalkSWMatrix):
 * Gotoh's recurrences over one clamped score matrix H, with E (gap in a, running along a row) and
 * F (gap in b, running down a column); a cell prefers the diagonal, then E, then F on ties. Row 0
 * and column 0 are filled by needle-like special rules, and E's starting value in column 0 is
 * charged only an extension when the cell above came down a gap (a water quirk, kept).
 *
 * The walk starts at the first maximal cell in row-major order and stops after a diagonal step
 * into a cell scoring 0. At a gap it looks for the shortest gap whose opening cell explains the
 * score exactly, giving up at column (row) 0. That shortest gap is recovered from one "opened
 * here" bit per cell: E at a cell either equals the left neighbour's H minus the opening cost or
 * continues the E chain, so the first opening bit met walking left marks the gap's start. The
 * fill thus keeps two rows of scores and one byte per cell.
 *
 * The reported score is water's: the best cell before clamping at 0, over cells outside row 0 and
 * column 0 (negative when no pair of residues scores above 0). When a sequence has one residue
 * there is no such cell (water prints -FLT_MAX); the alignment's own score is reported instead.
 */

const DIR_MASK = 3;
const DIAG = 0;
const LEFT = 1;
const DOWN = 2;
/** E here is the left neighbour's H minus the gap opening cost (a gap in a starts here). */
const E_OPEN = 4;
/** F here is the upper neighbour's H minus the gap opening cost (a gap in b starts here). */
const F_OPEN = 8;
const POSITIVE = 16;

interface LocalMatrix {
  flags: Uint8Array;
  /** H of column 0 and of row 0, for the walk's fallback at the matrix edge. */
  firstColumn: Int32Array;
  firstRow: Int32Array;
  bestY: number;
  bestX: number;
  score: number;
}

function fillLocal(pair: EncodedPair, gapOpen: number, gapExtend: number): LocalMatrix {
  const { codesA, codesB } = pair;
  const rows = codesA.length;
  const cols = codesB.length;
  const flags = new Uint8Array(rows * cols);
  const firstColumn = new Int32Array(rows);
  const firstRow = new Int32Array(cols);
  let hPrev = new Int32Array(cols);
  let hCur = new Int32Array(cols);
  const fDown = new Int32Array(cols);
  let bestH = -1;
  let bestY = 0;
  let bestX = 0;
  let score = Number.NEGATIVE_INFINITY;

  let sub = (codesA[0] ?? 0) * W;
  for (let x = 0; x < cols; x += 1) {
    const match = SUB[sub + (codesB[x] ?? 0)] ?? 0;
    const leftDir = x === 0 ? DIAG : (flags[x - 1] ?? 0) & DIR_MASK;
    const fromLeft = x === 0 ? 0 : (hPrev[x - 1] ?? 0) - (leftDir === LEFT ? gapExtend : gapOpen);
    let h = 0;
    let dir = DIAG;
    if (match > fromLeft && match > 0) h = match;
    else if (fromLeft > 0) {
      h = fromLeft;
      dir = LEFT;
    }
    hPrev[x] = h;
    firstRow[x] = h;
    const opened = x > 0 && (hPrev[x - 1] ?? 0) - gapOpen === h;
    flags[x] = dir | (opened ? E_OPEN : 0) | (h > 0 ? POSITIVE : 0);
    fDown[x] = h - gapOpen - gapExtend;
    if (h > bestH) [bestH, bestY, bestX] = [h, 0, x];
  }
  firstColumn[0] = hPrev[0] ?? 0;

  for (let y = 1; y < rows; y += 1) {
    sub = (codesA[y] ?? 0) * W;
    const base = y * cols;
    const upDir = (flags[base - cols] ?? 0) & DIR_MASK;
    const upCost = upDir === DOWN ? gapExtend : gapOpen;

    const match0 = SUB[sub + (codesB[0] ?? 0)] ?? 0;
    const fromUp = (hPrev[0] ?? 0) - upCost;
    let h0 = 0;
    let dir0 = DIAG;
    if (match0 > fromUp && match0 > 0) h0 = match0;
    else if (fromUp > 0) {
      h0 = fromUp;
      dir0 = DOWN;
    }
    hCur[0] = h0;
    firstColumn[y] = h0;
    flags[base] = dir0 | ((hPrev[0] ?? 0) - gapOpen === h0 ? F_OPEN : 0) | (h0 > 0 ? POSITIVE : 0);
    if (h0 > bestH) [bestH, bestY, bestX] = [h0, y, 0];

    // water's quirk: E starts one extension below H when the cell above came down a gap.
    let e = h0 - upCost;
    for (let x = 1; x < cols; x += 1) {
      let best = (hPrev[x - 1] ?? 0) + (SUB[sub + (codesB[x] ?? 0)] ?? 0);
      let dir = DIAG;

      e -= gapExtend;
      const openE = (hCur[x - 1] ?? 0) - gapOpen;
      const eOpened = openE >= e;
      if (openE > e) e = openE;
      if (e > best) {
        best = e;
        dir = LEFT;
      }

      let f = (fDown[x] ?? 0) - gapExtend;
      const openF = (hPrev[x] ?? 0) - gapOpen;
      const fOpened = openF >= f;
      if (openF > f) f = openF;
      fDown[x] = f;
      if (f > best) {
        best = f;
        dir = DOWN;
      }

      if (best > score) score = best;
      const h = best < 0 ? 0 : best;
      hCur[x] = h;
      flags[base + x] = dir | (eOpened ? E_OPEN : 0) | (fOpened ? F_OPEN : 0) | (h > 0 ? POSITIVE : 0);
      if (h > bestH) [bestH, bestY, bestX] = [h, y, x];
    }
    [hPrev, hCur] = [hCur, hPrev];
  }
  if (score === Number.NEGATIVE_INFINITY) score = bestH;
  return { flags, firstColumn, firstRow, bestY, bestX, score };
}

/** Walks back from the best cell; returns nothing, the tally holds the columns. */
function walkLocal(
  matrix: LocalMatrix,
  cols: number,
  gapOpen: number,
  gapExtend: number,
  tally: AlignmentTally,
): void {
  const { flags } = matrix;
  let y = matrix.bestY;
  let x = matrix.bestX;
  while (x >= 0 && y >= 0) {
    const f = flags[y * cols + x] ?? 0;
    const dir = f & DIR_MASK;
    if (dir === DIAG) {
      tally.match(y, x);
      y -= 1;
      x -= 1;
      if (y >= 0 && x >= 0 && ((flags[y * cols + x] ?? 0) & POSITIVE) === 0) return;
      continue;
    }
    const isLeft = dir === LEFT;
    const position = isLeft ? x : y;
    const openBit = isLeft ? E_OPEN : F_OPEN;
    const stride = isLeft ? 1 : cols;
    // Shortest gap explaining the score; water stops searching at the edge of the matrix.
    let length = 1;
    while (length < position && ((flags[y * cols + x - (length - 1) * stride] ?? 0) & openBit) === 0)
      length += 1;
    const explained = ((flags[y * cols + x - (length - 1) * stride] ?? 0) & openBit) !== 0;
    const edge = isLeft ? (matrix.firstColumn[y] ?? 0) : (matrix.firstRow[x] ?? 0);
    // water ends the walk instead of taking a gap whose starting score is not positive; for an
    // explained gap that score is this cell's own.
    const startsPositive = explained ? (f & POSITIVE) !== 0 : edge - gapOpen - (position - 1) * gapExtend > 0;
    if (!startsPositive) return;
    for (let k = 0; k < length; k += 1) {
      if (isLeft) {
        tally.gapInA(x);
        x -= 1;
      } else {
        tally.gapInB(y);
        y -= 1;
      }
    }
  }
}

/**
 * Local (Smith-Waterman) alignment with BLOSUM62 and affine gaps, reproducing EMBOSS water
 * (-gapopen 10 -gapextend 1) including which of several equal-scoring alignments it reports.
 * O(|a| * |b|) time; O(|b|) integers plus one byte per cell of memory.
 */
export function alignLocal(a: string, b: string, options: AlignmentOptions = {}): AlignmentResult {
  const { gapOpen, gapExtend } = resolveGapPenalties(options);
  const pair: EncodedPair = { a, b, codesA: encodeResidues(a), codesB: encodeResidues(b) };
  const tally = new AlignmentTally(pair, options.includeAlignment ?? false);
  if (a.length === 0 || b.length === 0) return tally.result(0);
  const matrix = fillLocal(pair, gapOpen, gapExtend);
  walkLocal(matrix, b.length, gapOpen, gapExtend, tally);
  return tally.result(matrix.score);
}
