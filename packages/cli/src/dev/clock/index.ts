export { DevClock, type DevClockHold, type DevClockMode, type DevClockTraceEntry, type DevTimer, type DevTimerOptions } from './dev-clock.js';
