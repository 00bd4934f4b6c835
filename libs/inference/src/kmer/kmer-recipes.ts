import { FULL20_ALPHABET, KmerSpectrumSpec } from '@svc/domain';

/**
 * The k-mer recipes an embedding config can name in `model_name`. A recipe is frozen once vectors
 * made with it may be stored: any change to it (or to the hash, alphabet or background table it
 * uses) goes under a new name. docs/embeddings-kmer.md records how kmer-v1 was chosen.
 */
export const KMER_RECIPES: Readonly<Record<string, KmerSpectrumSpec>> = {
  /**
   * Background-centred, variance-standardised 3-mer counts over the 20 standard amino acids
   * (the D2* statistic of Reinert et al. 2009), hashed with signs into 2048 dimensions.
   */
  'kmer-v1': {
    alphabet: FULL20_ALPHABET,
    orders: [3],
    dimension: 2048,
    termFrequency: 'raw',
    weighting: 'inverse_sqrt',
    signedHashing: true,
    balanceOrders: false,
    centerOnBackground: true,
  },
};

/** The recipe the service uses when it picks a k-mer config itself. */
export const DEFAULT_KMER_MODEL = 'kmer-v1';
