// The recipe variants the k-mer study compares: one factor at a time around kmer-v1, the full
// grid, and the candidates re-scored on the human holdout.
import {
  FULL20_ALPHABET,
  KmerSpectrumSpec,
  MURPHY10_ALPHABET,
  MURPHY15_ALPHABET,
  MURPHY8_ALPHABET,
} from '@svc/domain';
import { KMER_RECIPES } from '../../libs/inference/src/kmer/kmer-recipes';
import { TransferScoring } from './go-transfer-eval';

export const DEFAULT = KMER_RECIPES['kmer-v1']!;

export interface Variant {
  label: string;
  spec: KmerSpectrumSpec;
  /** Residues kept per sequence (the default config's max_length), none when undefined. */
  maxLength?: number;
  neighbours?: number;
  scoring?: TransferScoring;
}

export function describe(spec: KmerSpectrumSpec): string {
  return [
    spec.alphabet.name,
    `k=${spec.orders.join('+')}`,
    `d=${spec.dimension}`,
    `tf=${spec.termFrequency}${spec.centerOnBackground ? ' centred' : ''}`,
    `w=${spec.weighting}`,
    spec.signedHashing ? 'signed' : 'unsigned',
    spec.orders.length > 1 ? (spec.balanceOrders ? 'balanced' : 'summed') : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function withChanges(
  label: string,
  changes: Partial<KmerSpectrumSpec>,
  extra: Partial<Variant> = {},
): Variant {
  return { label, spec: { ...DEFAULT, ...changes }, ...extra };
}

/** Term frequency and centring, which go together (centring needs raw counts). */
const COUNTS: {
  label: string;
  termFrequency: KmerSpectrumSpec['termFrequency'];
  centerOnBackground: boolean;
}[] = [
  { label: 'raw, centred', termFrequency: 'raw', centerOnBackground: true },
  { label: 'raw', termFrequency: 'raw', centerOnBackground: false },
  { label: 'sublinear', termFrequency: 'sublinear', centerOnBackground: false },
  { label: 'binary', termFrequency: 'binary', centerOnBackground: false },
];
const WEIGHTS = ['none', 'surprisal', 'expected_idf', 'inverse_sqrt'] as const;
const ALPHABETS = [FULL20_ALPHABET, MURPHY15_ALPHABET, MURPHY10_ALPHABET, MURPHY8_ALPHABET];

/** The best three of the grid on the mini holdout (from a --grid run), re-scored on the human set. */
const MINI_GRID_TOP: Partial<KmerSpectrumSpec>[] = [
  {
    alphabet: MURPHY10_ALPHABET,
    orders: [3, 4],
    dimension: 1024,
    weighting: 'expected_idf',
    balanceOrders: true,
  },
  {
    alphabet: MURPHY15_ALPHABET,
    orders: [3, 4],
    dimension: 4096,
    weighting: 'none',
    signedHashing: false,
    balanceOrders: true,
  },
  {
    alphabet: MURPHY10_ALPHABET,
    orders: [2, 3],
    dimension: 1024,
    weighting: 'none',
    signedHashing: false,
    balanceOrders: true,
  },
];

/** One factor at a time around the default recipe. */
export function oneFactorVariants(): { title: string; variants: Variant[] }[] {
  const orders = [[1], [2], [3], [4], [2, 3], [1, 2, 3], [3, 4], [2, 3, 4]];
  return [
    {
      title: 'k values (several k: counts of all orders summed into one vector)',
      variants: [
        ...orders.map((o) => withChanges(`k=${o.join('+')}`, { orders: o })),
        ...[
          [2, 3],
          [1, 2, 3],
          [3, 4],
        ].map((o) =>
          withChanges(`k=${o.join('+')}, each k scaled to unit length`, { orders: o, balanceOrders: true }),
        ),
      ],
    },
    {
      title: 'alphabet (Murphy et al. 2000 reductions), same k and with k+1',
      variants: ALPHABETS.flatMap((a) => [
        withChanges(`${a.name} k=3`, { alphabet: a }),
        ...(a === FULL20_ALPHABET ? [] : [withChanges(`${a.name} k=4`, { alphabet: a, orders: [4] })]),
        ...(a === MURPHY10_ALPHABET
          ? [withChanges(`${a.name} k=2+3+4`, { alphabet: a, orders: [2, 3, 4] })]
          : []),
      ]),
    },
    {
      title: 'dimension',
      variants: [512, 1024, 2048, 4096, 8192].map((d) => withChanges(`d=${d}`, { dimension: d })),
    },
    {
      title: 'term frequency and background centring',
      variants: COUNTS.map(({ label, ...changes }) => withChanges(`tf=${label}`, changes)),
    },
    { title: 'fixed k-mer weight', variants: WEIGHTS.map((w) => withChanges(`w=${w}`, { weighting: w })) },
    {
      title: 'feature hashing',
      variants: [
        withChanges('signed', { signedHashing: true }),
        withChanges('unsigned', { signedHashing: false }),
      ],
    },
    {
      title: 'truncation and scoring (default recipe)',
      variants: [
        withChanges('whole sequence', {}),
        withChanges('first 1022 residues (max_length default)', {}, { maxLength: 1022 }),
        withChanges('20 neighbours, vote scoring', {}, { neighbours: 20, scoring: 'vote' }),
      ],
    },
  ];
}

export function gridVariants(): Variant[] {
  const orderSets = [[1], [2], [3], [4], [2, 3], [1, 2, 3], [3, 4], [2, 3, 4]];
  const variants: Variant[] = [];
  for (const alphabet of ALPHABETS)
    for (const orders of orderSets)
      for (const dimension of [1024, 4096])
        for (const { termFrequency, centerOnBackground } of COUNTS)
          for (const weighting of WEIGHTS)
            for (const signedHashing of [false, true])
              for (const balanceOrders of orders.length > 1 ? [false, true] : [true]) {
                const spec = {
                  alphabet,
                  orders,
                  dimension,
                  termFrequency,
                  weighting,
                  signedHashing,
                  balanceOrders,
                  centerOnBackground,
                };
                variants.push({ label: describe(spec), spec });
              }
  return variants;
}

/** Candidates for the human holdout: single changes to kmer-v1 and the mini grid's best three. */
export function humanCandidates(): Variant[] {
  return [
    { label: `kmer-v1 (${describe(DEFAULT)})`, spec: DEFAULT },
    withChanges('d=1024', { dimension: 1024 }),
    withChanges('d=4096', { dimension: 4096 }),
    withChanges('k=2+3', { orders: [2, 3] }),
    withChanges('k=3+4', { orders: [3, 4] }),
    withChanges('murphy10 k=4', { alphabet: MURPHY10_ALPHABET, orders: [4] }),
    withChanges('murphy10 k=2+3+4', { alphabet: MURPHY10_ALPHABET, orders: [2, 3, 4] }),
    withChanges('tf=raw, not centred', { centerOnBackground: false }),
    withChanges('w=none', { weighting: 'none' }),
    withChanges('unsigned', { signedHashing: false }),
    withChanges('tf=sublinear w=expected_idf, not centred', {
      termFrequency: 'sublinear',
      weighting: 'expected_idf',
      centerOnBackground: false,
    }),
    withChanges('first 1022 residues', {}, { maxLength: 1022 }),
    withChanges('20 neighbours, vote scoring', {}, { neighbours: 20, scoring: 'vote' }),
    // The three best grid recipes on the mini holdout.
    ...MINI_GRID_TOP.map((changes) => {
      const spec: KmerSpectrumSpec = { ...DEFAULT, ...changes };
      return { label: `mini grid: ${describe(spec)}`, spec };
    }),
  ];
}
