// TableHead is a table's header row, a column header for each catalog key
// of columns, in the page's language.
import { useT } from './useT';

export function TableHead({ columns }: { columns: string[] }) {
  const { t } = useT();
  return (
    <thead>
      <tr>
        {columns.map((k) => (
          <th scope="col" key={k}>
            {t(k)}
          </th>
        ))}
      </tr>
    </thead>
  );
}
