import { Col, Form, Input, InputNumber, Row, Select, type FormInstance } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { BILLING_SCHEMES, PROJECT_TYPE2, PROJECT_TYPES, projectBody } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { areaApi, areaKeys, regionOptions } from '../api';

const f = projectBody.shape;

/** The project form of projectlist (新增) and projectedit, validated with the server's schema. */
export function ProjectForm({ form }: { form: FormInstance }) {
  const regions = useQuery({ queryKey: areaKeys.regions, queryFn: areaApi.regions });
  return (
    <Form form={form} name="projectForm" layout="vertical">
      <Row gutter={16}>
        <Col span={12}><Form.Item name="name" label="项目名称" required rules={[zodRule(f.name)]}><Input maxLength={50} /></Form.Item></Col>
        <Col span={12}>
          <Form.Item name="regionId" label="所属区域" required rules={[zodRule(f.regionId)]}>
            <Select options={regionOptions(regions.data ?? [])} loading={regions.isLoading} placeholder="选择区域" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="projectType" label="项目类型" required rules={[zodRule(f.projectType)]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={PROJECT_TYPES.map((t) => ({ value: t.code, label: `${t.code} ${t.name}` }))} placeholder="选择项目类型" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="projectType2" label="二级类型" rules={[zodRule(f.projectType2)]}>
            <Select allowClear options={PROJECT_TYPE2.map((t) => ({ value: t.code, label: `${t.code} ${t.name}` }))} placeholder="无" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="billingScheme" label="计费方案" rules={[zodRule(f.billingScheme)]}>
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={BILLING_SCHEMES.map((b) => ({ value: b.value, label: b.name }))} placeholder="无" popupMatchSelectWidth={false} />
          </Form.Item>
        </Col>
        <Col span={8}><Form.Item name="lng" label="经度" rules={[zodRule(f.lng)]}><InputNumber min={-180} max={180} step={0.0001} style={{ width: '100%' }} /></Form.Item></Col>
        <Col span={8}><Form.Item name="lat" label="纬度" rules={[zodRule(f.lat)]}><InputNumber min={-90} max={90} step={0.0001} style={{ width: '100%' }} /></Form.Item></Col>
        <Col span={24}><Form.Item name="address" label="地址" rules={[zodRule(f.address)]}><Input maxLength={200} /></Form.Item></Col>
        <Col span={12}><Form.Item name="contact" label="联系人" rules={[zodRule(f.contact)]}><Input maxLength={50} /></Form.Item></Col>
        <Col span={12}><Form.Item name="phone" label="联系电话" rules={[zodRule(f.phone)]}><Input maxLength={32} /></Form.Item></Col>
        <Col span={24}><Form.Item name="remark" label="备注" rules={[zodRule(f.remark)]}><Input.TextArea maxLength={500} rows={2} /></Form.Item></Col>
      </Row>
    </Form>
  );
}
