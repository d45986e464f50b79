import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Form, Table, Typography, type FormInstance } from 'antd';
import { CalculatorOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import type { QuoteBody, QuoteLine, QuoteResult } from '@kelvin/contracts';
import { formatFen } from '../../accounts';
import { billingConfigApi } from '../api';

/**
 * 计费试算: the operator tries the prices being edited before saving them. `build` makes the quote request from the
 * edited form (its params) and this panel's own inputs; the server computes it with the engine's own formulas
 * (POST /api/v1/billing/quote), so what is shown is what a run would charge. A change of the inputs clears the result.
 */
export function QuoteTrial<V extends object>({ title = '计费试算', build, children, hint, initialValues, width }: {
  title?: ReactNode;
  /** the request; rejects (a form's validation) when something it needs is missing or wrong */
  build: (inputs: V, form: FormInstance<V>) => Promise<QuoteBody>;
  /** the trial's own inputs (Form.Items of this panel's form) */
  children: ReactNode;
  hint?: ReactNode;
  initialValues?: Partial<V>;
  width?: number | string;
}) {
  const [form] = Form.useForm<V>();
  const [result, setResult] = useState<QuoteResult | null>(null);
  const run = useMutation({
    mutationFn: (body: QuoteBody) => billingConfigApi.quote(body),
    onSuccess: setResult,
  });
  const start = async () => {
    let body: QuoteBody;
    try {
      const inputs = await form.validateFields();
      body = await build(inputs, form);
    } catch {
      return; // the forms show what is missing
    }
    run.mutate(body);
  };
  return (
    <Card size="small" title={<span><CalculatorOutlined /> {title}</span>} style={{ width }} data-testid="quote-trial">
      {hint && <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>{hint}</Typography.Paragraph>}
      <Form form={form} layout="vertical" initialValues={initialValues} onValuesChange={() => setResult(null)}>
        {children}
      </Form>
      <Button type="primary" ghost icon={<CalculatorOutlined />} loading={run.isPending} onClick={start}>试算</Button>
      {result && <QuoteLines result={result} />}
      {!result && !run.isPending && <Alert type="info" showIcon style={{ marginTop: 12 }} title="试算使用正在编辑（尚未保存）的价格，不会产生任何费用" />}
    </Card>
  );
}

/** The quote's lines and total (money only through formatFen). */
export function QuoteLines({ result }: { result: QuoteResult }) {
  return (
    <Table<QuoteLine>
      style={{ marginTop: 12 }}
      size="small"
      rowKey={(_, i) => String(i)}
      pagination={false}
      dataSource={result.lines}
      data-testid="quote-lines"
      columns={[
        { title: '项目', dataIndex: 'label' },
        { title: '数量', dataIndex: 'quantity', align: 'right', render: (v: number) => v.toLocaleString('zh-CN', { maximumFractionDigits: 4 }) },
        { title: '单价（元）', dataIndex: 'unitPrice', align: 'right' },
        { title: '金额（元）', dataIndex: 'amountFen', align: 'right', render: (v: number) => formatFen(v) },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0} colSpan={3}><b>合计</b></Table.Summary.Cell>
          <Table.Summary.Cell index={1} align="right"><b data-testid="quote-total">{formatFen(result.totalFen)}</b></Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}
