/** The content type of every JSON answer (route results, error bodies): one string in a bundle. */
export const JSON_TYPE = 'application/json; charset=utf-8';
