export { applySubscriptionChange, type AppliedSubscriptionChange, type ApplySubscriptionChangeOptions } from './apply-subscription-change.js';
export { readPlanHistory, readSubscription, readSubscriptionByCustomer, type PlanSegmentStart } from './subscription-row.js';
