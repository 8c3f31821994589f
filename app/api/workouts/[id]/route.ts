import { withUserData } from "@/lib/api/handler";
import { workoutIdParamsSchema } from "@/lib/schemas/requests";
import { json, type WorkoutResponse } from "@/lib/api/contract";
import { getWorkout } from "@/lib/services/records";

// GET /api/workouts/:id – one workout (404 when it is not the person's) with its heart-rate curve
export const GET = withUserData<{ id: string }>(async ({ user, params }) => {
  const { id } = workoutIdParamsSchema.parse(params);
  return json<WorkoutResponse>(await getWorkout(user.id, id));
});
