/** The dimension tables a query may join to the fact table `f`, with what each needs first. */

export type JoinName = 'c' | 'g' | 'a' | 'p' | 'adv' | 'advk' | 's' | 'geo' | 'k' | 'src';

const JOINS: Readonly<Record<JoinName, { sql: string; needs: readonly JoinName[] }>> = {
  c: { sql: 'LEFT JOIN campaigns c ON c.campaign_id = f.campaign_id', needs: [] },
  g: { sql: 'LEFT JOIN groups g ON g.group_id = f.group_id', needs: [] },
  a: { sql: 'LEFT JOIN ads a ON a.ad_id = f.ad_id', needs: [] },
  p: { sql: 'LEFT JOIN apps p ON p.app_id = c.app_id', needs: ['c'] },
  adv: { sql: 'LEFT JOIN advertisers adv ON adv.advertiser_id = c.advertiser_id', needs: ['c'] },
  advk: { sql: 'LEFT JOIN countries advk ON advk.country_idx = adv.country_idx', needs: ['adv'] },
  s: { sql: 'LEFT JOIN sites s ON s.site_id = f.site_id', needs: [] },
  geo: { sql: 'LEFT JOIN geo ON geo.geo_id = f.geo_id', needs: [] },
  k: { sql: 'LEFT JOIN countries k ON k.country_idx = geo.country_idx', needs: ['geo'] },
  src: { sql: 'LEFT JOIN sources src ON src.source_id = f.source_id', needs: [] },
};

const ORDER: readonly JoinName[] = ['c', 'g', 'a', 'p', 'adv', 'advk', 's', 'geo', 'k', 'src'];

/** The JOIN clauses for a set of needed tables, prerequisites included, in a valid order. */
export function joinClauses(needed: Iterable<JoinName>): string[] {
  const all = new Set<JoinName>();
  const add = (name: JoinName): void => {
    if (all.has(name)) return;
    for (const need of JOINS[name].needs) add(need);
    all.add(name);
  };
  for (const name of needed) add(name);
  return ORDER.filter((name) => all.has(name)).map((name) => JOINS[name].sql);
}
