import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnkhTokenizer, loadAnkhTokenizer } from './ankh-tokenizer';
import { ANKH_TEST_VOCAB, writeModelDir } from '../../testing/onnx/vocabularies';

const vocab = new Map(Object.entries(ANKH_TEST_VOCAB));
const id = (token: string): number => ANKH_TEST_VOCAB[token] ?? Number.NaN;
const [EOS, UNK] = [id('</s>'), id('<unk>')];

describe('AnkhTokenizer', () => {
  const tokenizer = new AnkhTokenizer(vocab);

  it.each([
    { name: 'one residue', residues: 'M', ids: [id('M'), EOS] },
    { name: 'residues then </s>, no start token', residues: 'MKT', ids: [id('M'), id('K'), id('T'), EOS] },
    {
      name: 'rare residues are not remapped',
      residues: 'BZOX',
      ids: [id('B'), id('Z'), id('O'), id('X'), EOS],
    },
    { name: 'a letter outside the vocabulary becomes <unk>', residues: 'MU', ids: [id('M'), UNK, EOS] },
    { name: 'an empty string is just </s>', residues: '', ids: [EOS] },
  ])('$name', ({ residues, ids }) => {
    expect(tokenizer.encode(residues)).toEqual({
      ids,
      residueStart: 0,
      residueCount: residues.length,
      clsIndex: null,
    });
  });

  it('accepts ▁ pieces as well as bare letters', () => {
    const pieces = new AnkhTokenizer(
      new Map([
        ['<pad>', 0],
        ['</s>', 1],
        ['<unk>', 2],
        ['\u2581M', 5],
      ]),
    );
    expect(pieces.encode('MA').ids).toEqual([5, 2, 1]);
  });

  it('pads with <pad>', () => expect(tokenizer.padId).toBe(id('<pad>')));

  it.each(['<pad>', '</s>', '<unk>'])('rejects a vocabulary without %s', (token) => {
    const partial = new Map([...vocab].filter(([t]) => t !== token));
    expect(() => new AnkhTokenizer(partial)).toThrow(expect.objectContaining({ code: 'invalid_model' }));
  });
});

describe('loadAnkhTokenizer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ankh-tokenizer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads vocab.json', async () => {
    await writeModelDir(dir, { 'vocab.json': JSON.stringify(ANKH_TEST_VOCAB) });
    expect((await loadAnkhTokenizer(dir)).encode('AC').ids).toEqual([id('A'), id('C'), EOS]);
  });
});
