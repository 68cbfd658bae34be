-- Tasks of the sample API. `fw migrate` applies this file once (fw dev applies pending migrations on start).
CREATE TABLE tasks (
  id uuid PRIMARY KEY,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  done boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX tasks_created_at ON tasks (created_at);

-- down
DROP TABLE tasks;
