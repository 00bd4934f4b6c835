import { firstRows } from './uniprot-search';

describe('firstRows', () => {
  const page = 'Entry\tFunction [CC]\nP1\ta\nP2\tb\n\nP3\tc\n';

  it('keeps the header and the first rows, and says when rows were left out', () => {
    expect(firstRows(page, 2)).toEqual({ text: 'Entry\tFunction [CC]\nP1\ta\nP2\tb\n', rows: 2, cut: true });
    expect(firstRows(page, 0)).toEqual({ text: 'Entry\tFunction [CC]\n', rows: 0, cut: true });
  });

  it('gives the page back as it came when it fits', () => {
    expect(firstRows(page, 3)).toEqual({ text: page, rows: 3, cut: false });
    expect(firstRows(page, 10)).toEqual({ text: page, rows: 3, cut: false });
    expect(firstRows('', 10)).toEqual({ text: '', rows: 0, cut: false });
  });
});
