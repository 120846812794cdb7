import { ChartRenderer } from '../../../src/render/index.js';

const config = (label: string, values: number[]) => ({
  type: 'bar' as const,
  data: {
    labels: values.map((_, i) => `${label}${i}`),
    datasets: [{ label, data: values, backgroundColor: '#0072B2' }],
  },
  options: { plugins: { legend: { display: false } } },
});

describe('ChartRenderer under concurrent renders', () => {
  it('renders many charts of one size at once, each the same as when rendered alone', async () => {
    const renderer = new ChartRenderer();
    const configs = Array.from({ length: 12 }, (_, k) =>
      config(
        `s${k}`,
        Array.from({ length: 8 }, (_, i) => ((i + 1) * (k + 3)) % 17),
      ),
    );
    const alone: Buffer[] = [];
    for (const c of configs) alone.push(await renderer.renderConfig(c, 400, 200));
    const together = await Promise.all(configs.map((c) => renderer.renderConfig(c, 400, 200)));
    expect(renderer.canvasCount).toBe(1);
    together.forEach((png, i) => {
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(png.equals(alone[i] as Buffer)).toBe(true);
    });
  }, 60_000);
});
