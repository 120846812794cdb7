import type { EnumDef } from './types.js';

const FACTS = 'reporting-service-facts.md';

/** Every enum of the spec's Enumerations table, in its order. */
export const ENUMS: readonly EnumDef[] = [
  {
    name: 'AdPreviewFormat',
    values: ['JPEG', 'PNG', 'GIF', 'HTML'],
    description: 'format of the ad preview of `adUrl`; availability depends on the ad',
    provenance: 'spec',
  },
  {
    name: 'AsyncPivotOutputType',
    values: ['S3'],
    description: 'where an asynchronous pivot writes its CSV',
    provenance: 'spec',
  },
  {
    name: 'AsyncPivotStatus',
    values: ['PENDING', 'QUEUED', 'RUNNING', 'READY', 'UP_FOR_RETRY', 'FAILED'],
    description: 'status of an asynchronous pivot',
    provenance: 'spec',
  },
  {
    name: 'AttrSource',
    values: ['ALL', 'MMP', 'SKAD'],
    description:
      "ALL (any source), MMP (measured by a mobile measurement partner), SKAD (measured by the platform vendor's privacy-preserving install attribution framework)",
    provenance: 'spec',
  },
  {
    name: 'AttrTechnique',
    values: ['ALL', 'DETERMINISTIC', 'PROB'],
    description: 'ALL, DETERMINISTIC (device-ID matched only), PROB (probabilistic only)',
    provenance: 'spec',
  },
  {
    name: 'AttrTouch',
    values: ['ALL', 'CLICK', 'IMP', 'EVIEW', 'ECLICK'],
    description:
      'ALL, CLICK (click-through attribution), IMP (view-through attribution from an impression), EVIEW (engaged view), ECLICK (engaged click)',
    provenance: 'spec',
  },
  {
    name: 'CampaignChannel',
    values: ['MOBILE', 'CTV', 'ALL'],
    description: 'MOBILE (own mobile data only), CTV (only the connected-TV datasource), ALL (union of both)',
    provenance: 'spec',
  },
  {
    name: 'CampaignTrackerType',
    values: ['MMP', 'SKAD'],
    description: 'how the campaign is tracked',
    provenance: 'spec',
  },
  {
    name: 'CampaignType',
    values: ['UA', 'RTGT'],
    description: 'user acquisition or retargeting',
    provenance: 'spec',
  },
  {
    name: 'CohortType',
    values: ['INSTALL', 'TOUCH', 'ATTRIBUTION'],
    description:
      'INSTALL (bucket conversions by install day), TOUCH (by impression/click day), ATTRIBUTION (by attribution day)',
    provenance: 'spec',
  },
  {
    name: 'Granularity',
    values: ['NONE', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY', 'MILLENNIUM'],
    description: 'date truncation of the `date` dimension',
    provenance: 'decided',
    note:
      "The spec's table names NONE, DAILY, WEEKLY, MONTHLY, QUARTERLY, YEARLY, MILLENNIUM, yet its limits " +
      '("hourly granularity only for the last 15 days") and `timeOfDay` ("only split under HOURLY granularity") ' +
      `refer to HOURLY. We add HOURLY (placed by size, after NONE); ${FACTS} also notes "HOURLY is also referenced in the limits text".`,
  },
  {
    name: 'GroupExperiment',
    values: ['REGULAR', 'AB_TEST'],
    description: 'REGULAR (not in any experiment), AB_TEST',
    provenance: 'spec',
  },
  {
    name: 'GroupType',
    values: ['DPA', 'REGULAR'],
    description: 'kind of ad group',
    provenance: 'spec',
  },
  {
    name: 'Period',
    values: ['HOURS', 'DAYS', 'WEEKS'],
    description: 'unit of a cohort window',
    provenance: 'spec',
  },
  {
    name: 'Platform',
    values: ['IOS', 'ANDROID'],
    description: 'app platform',
    provenance: 'spec',
  },
  {
    name: 'PostbackTrack',
    values: ['EVENTS', 'INSTALLS'],
    description: 'which postback track postbackShare analyzes (events or installs)',
    provenance: 'decided',
    note: `The spec names only EVENTS and says the track is either events or installs; ${FACTS} (AE vocabulary) gives EVENTS, INSTALLS.`,
  },
  {
    name: 'QualityType',
    values: ['op', 'contr', 'contr_comp'],
    description:
      'op: operative goal (all conversions, campaign goal type); contr: contractual goal (attribution source must match ' +
      "the campaign's contractual measurement source, contractual goal type); contr_comp: contractual comparative",
    provenance: 'decided',
    note: `The spec shows only a lowercase \`op\` as a sample; ${FACTS} (AE vocabulary) gives op, contr, contr_comp, lower-case.`,
  },
  {
    name: 'SkanAttributionFlag',
    values: ['ALL', 'MMP_AND_SKAD', 'SKAD_ONLY'],
    description:
      'ALL (any flag), MMP_AND_SKAD (installs the MMP flagged as also attributed via the framework), SKAD_ONLY (installs attributed only via the framework)',
    provenance: 'decided',
    note:
      `The spec names only ALL and describes two more values without names; ${FACTS} found no source for them. ` +
      'MMP_AND_SKAD and SKAD_ONLY are our names, to verify with one authenticated introspection call.',
  },
  {
    name: 'Status',
    values: ['ACTIVE', 'PAUSED', 'ARCHIVED'],
    description: 'campaign status',
    provenance: 'decided',
    note: `The spec names only ACTIVE; ${FACTS} (AE vocabulary) lists a Status enum ACTIVE, PAUSED, ARCHIVED.`,
  },
];
