import { createMetrics } from '../../../src/metrics/index.js';
import { parsePrometheusText, sampleSum } from '../../support/prometheusText.js';

describe('createMetrics', () => {
  it('writes an exposition a strict Prometheus reader accepts, with the values recorded', async () => {
    const metrics = createMetrics();
    metrics.slots.posted.inc({ kind: 'digest', report: 'daily' });
    metrics.slots.posted.inc({ kind: 'digest', report: 'daily' });
    metrics.slots.postDelay.observe({ kind: 'digest' }, 42);
    metrics.reporting.requests.inc({ operation: 'pivot', outcome: 'http_5xx' });
    // A report id is the operator's text: quotes, backslashes and newlines are escaped, not dropped.
    metrics.slots.due.inc({ kind: 'digest', report: 'odd "id"\\\n' });
    const { contentType, text } = await metrics.exposition();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusText(text);
    expect(sampleSum(families, 'pivotbot_slots_posted_total', { report: 'daily' })).toBe(2);
    expect(sampleSum(families, 'pivotbot_slot_post_delay_seconds_count')).toBe(1);
    expect(sampleSum(families, 'pivotbot_slot_post_delay_seconds_bucket', { le: '60' })).toBe(1);
    expect(sampleSum(families, 'pivotbot_slot_post_delay_seconds_bucket', { le: '30' })).toBe(0);
    expect(sampleSum(families, 'pivotbot_slots_due_total', { report: 'odd "id"\\\n' })).toBe(1);
    expect(families.get('pivotbot_slots_posted_total')?.type).toBe('counter');
  });

  it('reads its gauges when scraped, from the sources set after it was made', async () => {
    const metrics = createMetrics();
    const now = new Date('2026-11-20T09:20:00Z');
    metrics.sources.clock = () => now;
    metrics.sources.oldestDueSlot = () => new Date('2026-11-20T09:00:00Z');
    metrics.sources.workQueueDepth = () => 3;
    metrics.sources.openIncidents = () => 2;
    metrics.sources.replicaQueue = async () => ({ queued: 5, active: 1, deferred: 4 });
    const families = parsePrometheusText((await metrics.exposition()).text);
    expect(sampleSum(families, 'pivotbot_slot_oldest_due_seconds')).toBe(1200);
    expect(sampleSum(families, 'pivotbot_work_queue_depth')).toBe(3);
    expect(sampleSum(families, 'pivotbot_alert_incidents_open')).toBe(2);
    expect(sampleSum(families, 'pivotbot_replica_queue_jobs', { state: 'deferred' })).toBe(4);
  });

  it('reports 0 for the oldest due slot when none is due, and no replica queue without one', async () => {
    const families = parsePrometheusText((await createMetrics().exposition()).text);
    expect(sampleSum(families, 'pivotbot_slot_oldest_due_seconds')).toBe(0);
    expect(families.get('pivotbot_replica_queue_jobs')?.samples).toEqual([]);
  });
});

describe('parsePrometheusText', () => {
  it('reads special values as Prometheus does, in any case', () => {
    const families = parsePrometheusText('# TYPE g gauge\ng{a="1"} Nan\ng{a="2"} +Inf\ng{a="3"} -inf\n');
    expect(families.get('g')?.samples.map((s) => s.value)).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
  });

  it.each([
    ['a sample of no declared family', 'pivotbot_x 1\n'],
    ['a bad number', '# TYPE x counter\nx one\n'],
    ['an unterminated label value', '# TYPE x counter\nx{a="b} 1\n'],
    ['a bad escape', '# TYPE x counter\nx{a="\\t"} 1\n'],
    ['a label twice', '# TYPE x counter\nx{a="1",a="2"} 1\n'],
    ['a +Inf bucket that is not the count', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
