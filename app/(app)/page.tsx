export default function TodayPage() {
  return <h1 className="text-2xl font-semibold">Today</h1>;
}
