import { encodeResidues, SUBSTITUTION_SCORES as SUB, SUBSTITUTION_WIDTH as W } from './blosum62';
import { AlignmentTally, EncodedPair } from './alignment-tally';
import { AlignmentOptions, AlignmentResult, resolveGapPenalties } from './alignment-types';

/*
 * Global alignment as EMBOSS needle 6.6.0 computes it with its defaults (-endweight false): Gotoh's
 * three states (M: a[i] aligned to b[j]; IX: b[j] against a gap; IY: a[i] against a gap), with
 * gaps in the last row and last column free, so trailing end gaps cost nothing (there a gap opens
 * from M only, not from the other gap state: Debian's 6.6.0 binary scores that way, although some
 * published embaln.c revisions do not); leading end gaps are free through the first row and
 * column, whose M cells take the bare substitution score. A gap of length L inside costs
 * open + (L - 1) * extend. The reported score is the best state of the last cell.
 *
 * Equal-scoring alignments differ in their identity and gap counts, so the traceback copies
 * needle's own rules (embAlignPathCalcWithEndGapPenalties), quirks included: it stays in a gap
 * while the neighbour's value is exactly one extension away (counting row 0 and column 0 as end
 * rows there, although the fill charges them normally), otherwise prefers the match state, then
 * IX over IY. Those decisions need only comparisons between a cell's states, so the fill keeps two
 * rows of scores and one byte of flags per cell instead of three score matrices.
 */

const M_GE_IX = 1;
const M_GE_IY = 2;
const M_EQ_IX = 4;
const M_EQ_IY = 8;
const IX_GE_IY = 16;
/** ix of the left neighbour minus ix here equals that row's traceback extension cost. */
const IX_EXTENDS = 32;
/** iy of the upper neighbour minus iy here equals that column's traceback extension cost. */
const IY_EXTENDS = 64;

const NONE = 0;
const DIAG = 1;
const LEFT = 2;
const DOWN = 3;

function compareStates(m: number, ix: number, iy: number): number {
  return (
    (m >= ix ? M_GE_IX : 0) |
    (m >= iy ? M_GE_IY : 0) |
    (m === ix ? M_EQ_IX : 0) |
    (m === iy ? M_EQ_IY : 0) |
    (ix >= iy ? IX_GE_IY : 0)
  );
}

function max3(m: number, ix: number, iy: number): number {
  return m >= ix ? (m >= iy ? m : iy) : ix >= iy ? ix : iy;
}

/** Fills the three-state matrix row by row; returns the traceback flags and needle's score. */
function fillGlobal(
  pair: EncodedPair,
  gapOpen: number,
  gapExtend: number,
): { flags: Uint8Array; score: number } {
  const { codesA, codesB } = pair;
  const rows = codesA.length;
  const cols = codesB.length;
  const lastRow = rows - 1;
  const lastCol = cols - 1;
  const flags = new Uint8Array(rows * cols);
  let mPrev = new Int32Array(cols);
  let ixPrev = new Int32Array(cols);
  let iyPrev = new Int32Array(cols);
  let mCur = new Int32Array(cols);
  let ixCur = new Int32Array(cols);
  let iyCur = new Int32Array(cols);

  // Row 0. needle adjusts the corner's ix for a one-residue a before it fills the row, and the
  // last column's iy afterwards; both adjustments free an end gap.
  let sub = (codesA[0] ?? 0) * W;
  mPrev[0] = SUB[sub + (codesB[0] ?? 0)] ?? 0;
  ixPrev[0] = rows === 1 ? 0 : -gapOpen;
  iyPrev[0] = cols === 1 ? 0 : -gapOpen;
  flags[0] = compareStates(mPrev[0], ixPrev[0], iyPrev[0]);
  for (let x = 1; x < cols; x += 1) {
    const m = SUB[sub + (codesB[x] ?? 0)] ?? 0;
    const open = (mPrev[x - 1] ?? 0) - gapOpen;
    const extend = (ixPrev[x - 1] ?? 0) - gapExtend;
    const ix = open >= extend ? open : extend;
    const iy = x === lastCol ? 0 : -gapOpen;
    mPrev[x] = m;
    ixPrev[x] = ix;
    iyPrev[x] = iy;
    // Row 0 counts as an end row in the traceback: extension cost 0.
    flags[x] = compareStates(m, ix, iy) | ((ixPrev[x - 1] ?? 0) === ix ? IX_EXTENDS : 0);
  }

  for (let y = 1; y < rows; y += 1) {
    sub = (codesA[y] ?? 0) * W;
    const isLastRow = y === lastRow;
    const rowExtend = isLastRow ? 0 : gapExtend;
    const base = y * cols;

    // Column 0: needle fills it before row 0, so row 1 extends the corner's unadjusted iy.
    const m0 = SUB[sub + (codesB[0] ?? 0)] ?? 0;
    const above = y === 1 ? -gapOpen : (iyPrev[0] ?? 0);
    const open0 = (mPrev[0] ?? 0) - gapOpen;
    const iy0 = open0 >= above - gapExtend ? open0 : above - gapExtend;
    const ix0 = isLastRow ? 0 : -gapOpen;
    mCur[0] = m0;
    ixCur[0] = ix0;
    iyCur[0] = iy0;
    flags[base] = compareStates(m0, ix0, iy0) | ((iyPrev[0] ?? 0) - iy0 === 0 ? IY_EXTENDS : 0);

    for (let x = 1; x < cols; x += 1) {
      const m =
        max3(mPrev[x - 1] ?? 0, ixPrev[x - 1] ?? 0, iyPrev[x - 1] ?? 0) + (SUB[sub + (codesB[x] ?? 0)] ?? 0);

      const mUp = mPrev[x] ?? 0;
      const ixUp = ixPrev[x] ?? 0;
      const iyUp = iyPrev[x] ?? 0;
      const isLastCol = x === lastCol;
      const colExtend = isLastCol ? 0 : gapExtend;
      // In the free last column needle opens a gap only from M, not from IX.
      const openY = isLastCol ? mUp : (mUp >= ixUp ? mUp : ixUp) - gapOpen;
      const iy = openY >= iyUp - colExtend ? openY : iyUp - colExtend;

      const mLeft = mCur[x - 1] ?? 0;
      const iyLeft = iyCur[x - 1] ?? 0;
      const ixLeft = ixCur[x - 1] ?? 0;
      const openX = isLastRow ? mLeft : (mLeft >= iyLeft ? mLeft : iyLeft) - gapOpen;
      const ix = openX >= ixLeft - rowExtend ? openX : ixLeft - rowExtend;

      mCur[x] = m;
      ixCur[x] = ix;
      iyCur[x] = iy;
      flags[base + x] =
        compareStates(m, ix, iy) |
        (ixLeft - ix === rowExtend ? IX_EXTENDS : 0) |
        (iyUp - iy === colExtend ? IY_EXTENDS : 0);
    }
    [mPrev, mCur] = [mCur, mPrev];
    [ixPrev, ixCur] = [ixCur, ixPrev];
    [iyPrev, iyCur] = [iyCur, iyPrev];
  }

  // needle's corner choice: M only when strictly best, then IX when strictly above IY.
  const m = mPrev[lastCol] ?? 0;
  const ix = ixPrev[lastCol] ?? 0;
  const iy = iyPrev[lastCol] ?? 0;
  const score = m > ix && m > iy ? m : ix > iy ? ix : iy;
  return { flags, score };
}

function traceGlobal(flags: Uint8Array, rows: number, cols: number, tally: AlignmentTally): void {
  let y = rows - 1;
  let x = cols - 1;
  let previous = NONE;
  while (x >= 0 && y >= 0) {
    const here = y * cols + x;
    const f = flags[here] ?? 0;
    let step: number;
    if (previous === LEFT && ((flags[here + 1] ?? 0) & IX_EXTENDS) !== 0) step = LEFT;
    else if (previous === DOWN && ((flags[here + cols] ?? 0) & IY_EXTENDS) !== 0) step = DOWN;
    else if ((f & M_GE_IX) !== 0 && (f & M_GE_IY) !== 0) {
      if (previous === LEFT && (f & M_EQ_IX) !== 0) step = LEFT;
      else if (previous === DOWN && (f & M_EQ_IY) !== 0) step = DOWN;
      else step = DIAG;
    } else step = (f & IX_GE_IY) !== 0 ? LEFT : DOWN;

    if (step === DIAG) {
      tally.match(y, x);
      y -= 1;
      x -= 1;
    } else if (step === LEFT) {
      tally.gapInA(x);
      x -= 1;
    } else {
      tally.gapInB(y);
      y -= 1;
    }
    previous = step;
  }
  // Whatever is left of either sequence is a leading end gap.
  for (; x >= 0; x -= 1) tally.gapInA(x);
  for (; y >= 0; y -= 1) tally.gapInB(y);
}

/**
 * Global (Needleman-Wunsch) alignment with BLOSUM62 and affine gaps, reproducing EMBOSS needle
 * (-gapopen 10 -gapextend 1, end gaps free) including which of several equal-scoring alignments
 * it reports. O(|a| * |b|) time; O(|b|) integers plus one byte per cell of memory.
 */
export function alignGlobal(a: string, b: string, options: AlignmentOptions = {}): AlignmentResult {
  const { gapOpen, gapExtend } = resolveGapPenalties(options);
  const pair: EncodedPair = { a, b, codesA: encodeResidues(a), codesB: encodeResidues(b) };
  const tally = new AlignmentTally(pair, options.includeAlignment ?? false);
  if (a.length === 0 || b.length === 0) {
    // needle refuses empty sequences; the natural answer is all end gaps, scoring 0.
    for (let x = b.length - 1; x >= 0; x -= 1) tally.gapInA(x);
    for (let y = a.length - 1; y >= 0; y -= 1) tally.gapInB(y);
    return tally.result(0);
  }
  const { flags, score } = fillGlobal(pair, gapOpen, gapExtend);
  traceGlobal(flags, a.length, b.length, tally);
  return tally.result(score);
}
