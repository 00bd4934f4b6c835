import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddingBackendError } from '../embedding-backend';
import { EsmTokenizer, loadEsmTokenizer } from './esm-tokenizer';
import { ESM_TEST_VOCAB, esmVocabText, writeModelDir } from '../../testing/onnx/vocabularies';

const vocab = new Map(ESM_TEST_VOCAB.map((token, id) => [token, id]));
const id = (token: string): number => ESM_TEST_VOCAB.indexOf(token);
const [CLS, EOS, UNK] = [id('<cls>'), id('<eos>'), id('<unk>')];

describe('EsmTokenizer', () => {
  const tokenizer = new EsmTokenizer(vocab);

  it.each([
    { name: 'one residue', residues: 'M', ids: [CLS, id('M'), EOS] },
    { name: 'several residues', residues: 'MKT', ids: [CLS, id('M'), id('K'), id('T'), EOS] },
    {
      name: 'rare residues keep their own tokens',
      residues: 'UZOBX',
      ids: [CLS, id('U'), id('Z'), id('O'), id('B'), id('X'), EOS],
    },
    { name: 'an unknown letter becomes <unk>', residues: 'MJK', ids: [CLS, id('M'), UNK, id('K'), EOS] },
    { name: 'lower case is not in the vocabulary', residues: 'm', ids: [CLS, UNK, EOS] },
    { name: 'special-token text is read letter by letter', residues: '<', ids: [CLS, UNK, EOS] },
    { name: 'an empty string is just the special tokens', residues: '', ids: [CLS, EOS] },
  ])('$name', ({ residues, ids }) => {
    expect(tokenizer.encode(residues)).toEqual({
      ids,
      residueStart: 1,
      residueCount: residues.length,
      clsIndex: 0,
    });
  });

  it('pads with <pad>', () => expect(tokenizer.padId).toBe(id('<pad>')));

  it.each(['<cls>', '<pad>', '<eos>', '<unk>'])('rejects a vocabulary without %s', (token) => {
    const partial = new Map([...vocab].filter(([t]) => t !== token));
    expect(() => new EsmTokenizer(partial, '/m/vocab.txt')).toThrow(
      expect.objectContaining({ code: 'invalid_model', message: expect.stringContaining(token) }),
    );
  });
});

describe('loadEsmTokenizer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'esm-tokenizer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    { name: 'LF line ends', text: esmVocabText() },
    { name: 'CRLF line ends', text: ESM_TEST_VOCAB.join('\r\n') },
  ])('reads vocab.txt with $name (id = line index)', async ({ text }) => {
    const modelDir = join(dir, 'ok');
    await writeModelDir(modelDir, { 'vocab.txt': text });
    const tokenizer = await loadEsmTokenizer(modelDir);
    expect(tokenizer.encode('LA').ids).toEqual([0, 4, 5, 2]);
  });

  it('names the missing vocab.txt', async () => {
    const modelDir = join(dir, 'no-vocab');
    await writeModelDir(modelDir, {});
    const error = await loadEsmTokenizer(modelDir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingBackendError);
    expect(error).toMatchObject({
      code: 'model_not_found',
      message: expect.stringContaining(join(modelDir, 'vocab.txt')),
    });
  });
});
