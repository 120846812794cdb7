import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvCell, toCsv, writeCsv } from '../../../src/reports/index.js';

describe('csvCell', () => {
  it.each([
    [null, ''],
    [1.0000000000000002, '1.0000000000000002'],
    [10492.259863167761, '10492.259863167761'],
    [-3.5, '-3.5'],
    ['12345678901234567890', '12345678901234567890'],
    ['-42', '-42'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['São Paulo', 'São Paulo'],
    [true, 'true'],
  ])('writes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each(['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', '=HYPERLINK("http://evil","x")'])(
    'neutralises the formula %j',
    (value) => {
      const cell = csvCell(value);
      expect(cell.replace(/^"/, '').startsWith("'")).toBe(true);
    },
  );
});

describe('CSV files', () => {
  const columns = [{ key: 'countryCode' }, { key: 'spend', header: 'spend' }, { key: 'note' }];
  const rows = [
    { countryCode: 'US', spend: 10.5, note: 'ok' },
    { countryCode: 'BR', spend: null, note: '=cmd()' },
  ];

  it('renders a header of requested names and CRLF records', () => {
    expect(toCsv(columns, rows)).toBe("countryCode,spend,note\r\nUS,10.5,ok\r\nBR,,'=cmd()\r\n");
  });

  it('streams rows from an async source to a file and renames it into place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pivotbot-csvw-'));
    try {
      async function* source() {
        for (let i = 0; i < 50_000; i++) yield { countryCode: `C${i}`, spend: i / 3, note: '' };
      }
      const result = await writeCsv(join(dir, 'sub', 'x.csv'), columns, source());
      const text = await readFile(join(dir, 'sub', 'x.csv'), 'utf8');
      expect(result.rows).toBe(50_000);
      expect(result.bytes).toBe(Buffer.byteLength(text));
      expect(text.split('\r\n')[50_000]).toBe(`C49999,${49_999 / 3},`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
