export { checkUsage, insertUsage, usageIn, type TrackInput, type Tracked } from './track-usage.js';
