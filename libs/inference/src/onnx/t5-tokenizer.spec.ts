import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadT5Tokenizer, T5Tokenizer } from './t5-tokenizer';
import { T5_TEST_VOCAB, writeModelDir } from '../../testing/onnx/vocabularies';

const vocab = new Map(Object.entries(T5_TEST_VOCAB));
const piece = (letter: string): number => T5_TEST_VOCAB[`\u2581${letter}`] ?? Number.NaN;
const [EOS, UNK] = [T5_TEST_VOCAB['</s>'], T5_TEST_VOCAB['<unk>']];

describe('T5Tokenizer (ProtT5)', () => {
  const tokenizer = new T5Tokenizer(vocab);

  it.each([
    { name: 'one residue', residues: 'M', ids: [piece('M'), EOS] },
    {
      name: 'residues then </s>, no start token',
      residues: 'MKT',
      ids: [piece('M'), piece('K'), piece('T'), EOS],
    },
    {
      name: 'U Z O B are read as X',
      residues: 'UZOB',
      ids: [piece('X'), piece('X'), piece('X'), piece('X'), EOS],
    },
    { name: 'X stays X', residues: 'AXA', ids: [piece('A'), piece('X'), piece('A'), EOS] },
    { name: 'an unknown letter becomes <unk>', residues: 'MJ', ids: [piece('M'), UNK, EOS] },
    { name: 'an empty string is just </s>', residues: '', ids: [EOS] },
  ])('$name', ({ residues, ids }) => {
    expect(tokenizer.encode(residues)).toEqual({
      ids,
      residueStart: 0,
      residueCount: residues.length,
      clsIndex: null,
    });
  });

  it('accepts bare letters as well as ▁ pieces', () => {
    const bare = new T5Tokenizer(
      new Map([
        ['<pad>', 0],
        ['</s>', 1],
        ['<unk>', 2],
        ['M', 7],
        ['X', 9],
      ]),
    );
    expect(bare.encode('MU').ids).toEqual([7, 9, 1]);
  });

  it('prefers the bare letter when both forms exist', () => {
    const both = new T5Tokenizer(
      new Map([
        ['<pad>', 0],
        ['</s>', 1],
        ['<unk>', 2],
        ['M', 7],
        ['\u2581M', 8],
      ]),
    );
    expect(both.encode('M').ids).toEqual([7, 1]);
  });

  it('pads with <pad>', () => expect(tokenizer.padId).toBe(0));

  it.each(['<pad>', '</s>', '<unk>'])('rejects a vocabulary without %s', (token) => {
    const partial = new Map([...vocab].filter(([t]) => t !== token));
    expect(() => new T5Tokenizer(partial)).toThrow(
      expect.objectContaining({ code: 'invalid_model', message: expect.stringContaining(token) }),
    );
  });
});

describe('loadT5Tokenizer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 't5-tokenizer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads vocab.json', async () => {
    await writeModelDir(join(dir, 'ok'), { 'vocab.json': JSON.stringify(T5_TEST_VOCAB) });
    expect((await loadT5Tokenizer(join(dir, 'ok'))).encode('A').ids).toEqual([piece('A'), EOS]);
  });

  it.each([
    { name: 'not JSON', content: '<pad> 0' },
    { name: 'a JSON array', content: '["<pad>", "</s>"]' },
    { name: 'a non-integer id', content: '{"<pad>": 0, "</s>": 1.5, "<unk>": 2}' },
    { name: 'a negative id', content: '{"<pad>": -1, "</s>": 1, "<unk>": 2}' },
  ])('rejects a vocab.json that is $name', async ({ name, content }) => {
    const modelDir = join(dir, name.replace(/\W+/g, '-'));
    await writeModelDir(modelDir, { 'vocab.json': content });
    await expect(loadT5Tokenizer(modelDir)).rejects.toMatchObject({
      code: 'invalid_model',
      message: expect.stringContaining(join(modelDir, 'vocab.json')),
    });
  });

  it('names the missing vocab.json', async () => {
    await writeModelDir(join(dir, 'empty'), {});
    await expect(loadT5Tokenizer(join(dir, 'empty'))).rejects.toMatchObject({
      code: 'model_not_found',
      message: expect.stringContaining(join(dir, 'empty', 'vocab.json')),
    });
  });
});
