import { AckTimes } from '../../../../src/slack/receiver/ackTimes.js';

describe('AckTimes', () => {
  it('reports nothing before the first request', () => {
    expect(new AckTimes().summary()).toEqual({ count: 0 });
  });

  it('gives the median, p99 and max of the window, rounded to 0.1 ms', () => {
    const times = new AckTimes();
    for (let ms = 1; ms <= 100; ms++) times.record(ms + 0.04);
    expect(times.summary()).toEqual({ count: 100, p50Ms: 50, p99Ms: 99, maxMs: 100 });
  });

  it('keeps only the last requests in the window, but counts them all', () => {
    const times = new AckTimes(10);
    for (let i = 0; i < 10; i++) times.record(500);
    for (let i = 0; i < 10; i++) times.record(2);
    expect(times.summary()).toEqual({ count: 20, p50Ms: 2, p99Ms: 2, maxMs: 2 });
  });
});
