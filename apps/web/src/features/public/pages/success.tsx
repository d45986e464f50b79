import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { PublicFrame } from '../components';

/** /success: what happens after an application. */
export default function SuccessPage() {
  return (
    <PublicFrame narrow>
      <Result
        status="success"
        title="入驻申请已提交"
        subTitle="平台管理员审核后将以短信通知您审核结果；通过后，短信中包含管理员账号与初始密码，请登录后立即修改密码。"
        extra={[
          <Link key="intro" to="/introduction/index"><Button>了解平台</Button></Link>,
          <Link key="login" to="/login"><Button type="primary">前往登录</Button></Link>,
        ]}
      />
    </PublicFrame>
  );
}
