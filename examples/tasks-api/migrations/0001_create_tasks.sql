-- The tasks API's tables. Applied by `fw dev` at start-up and `fw migrate` locally, and before new code takes
-- traffic on `fw deploy`.
CREATE TABLE tasks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner text NOT NULL,
  title text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tasks_owner_created ON tasks (owner, created_at, id);

CREATE TABLE task_events (
  id bigserial PRIMARY KEY,
  task_id uuid NOT NULL,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- down
DROP TABLE task_events;
DROP TABLE tasks;
